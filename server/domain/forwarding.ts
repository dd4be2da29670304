import type { ForwardingErrorCode } from '../contract/forwarding.js';

/** One listen as it goes out to ListenBrainz: names, not Melon ids, so the outbox outlives the library. */
export interface OutgoingListen {
  /** Epoch seconds. */
  listenedAt: number;
  artist: string;
  title: string;
  album: string | null;
  durationMs: number | null;
  recordingMbid: string | null;
  releaseMbid: string | null;
  trackNumber: number | null;
  /** The player that played it (ListenBrainz's media_player). */
  client: string | null;
}

export interface ForwardingError {
  code: ForwardingErrorCode;
  message: string;
  /** epoch ms */
  at: number;
}

/** A member's forwarding: where to, the sealed token, what waits to go and how the last send went. */
export interface ForwardingRecord {
  url: string;
  /** The ListenBrainz token, sealed (AES-256-GCM); null: forwarding is off. */
  sealedToken: string | null;
  /** The service refused the token: nothing is sent until a token is given again. */
  tokenRefused: boolean;
  /** epoch ms */
  lastSentAt: number | null;
  lastError: ForwardingError | null;
  /** The outbox, oldest first. */
  queue: OutgoingListen[];
}
