/**
 * The page's own player: one <audio> element for the whole page, the queue, and what a good
 * scrobbler does with them: plays and skips logged as Melon counts them, "now playing" announced,
 * the queue saved as the member's play queue (so it continues on a phone and back), the lock screen
 * and headset buttons through the Media Session API.
 */
import type { Track } from '../../server/contract/library.js';
import type { PlayQueue } from '../../server/contract/listening.js';
import type { Api } from '../api.js';
import type { Messages } from '../messages.js';
import type { Session } from '../session.js';
import { deviceLabel } from './device.js';
import { answerMediaKeys, showInMediaSession } from './media-session.js';
import { PlayCounter } from './play-counter.js';
import { Queue, type RepeatMode } from './queue.js';
import { QueueSaver } from './queue-saver.js';
import { StreamTokens } from './stream-token.js';
import { SettlingSeek } from './settling-seek.js';
import { streamUrl } from './stream-url.js';

export class Player {
  readonly audio: HTMLAudioElement;
  readonly queue = new Queue<Track>();
  private counter: PlayCounter | null = null;
  private listeners = new Set<() => void>();
  private readonly saver: QueueSaver;
  /** Whether the current track is the transcode because the browser could not play the original. */
  private transcoded = false;
  /** Whether the element plays a transcode now (it cannot seek in one: see `seek`). */
  private live = false;
  /** Where in the track the element's clock starts: a transcode asked from a later position. */
  private offsetMs = 0;
  private coverUrl: string | null = null;
  /** A Pass account listens but logs nothing and saves no queue. */
  private readonly logs: boolean;
  private readonly streamTokens: StreamTokens;
  /** Whether the current track's address was given a new token after an error. */
  private renewed = false;
  /** Counts loads, so a token that arrives after the listener moved on loads nothing. */
  private loads = 0;
  /** Play was pressed while the first address still waited for its token. */
  private playWhenLoaded = false;
  private readonly settling = new SettlingSeek();

  constructor(
    private readonly api: Api,
    session: Session,
    private readonly messages: Messages,
  ) {
    this.logs = session.role !== 'Pass';
    this.streamTokens = new StreamTokens(api);
    this.saver = new QueueSaver(api, this.logs, () => ({
      trackIds: this.queue.state.tracks.map((track) => track.id),
      current: this.current?.id,
      positionMs: this.current ? this.positionMs() : 0,
    }));
    this.audio = document.createElement('audio');
    this.audio.preload = 'auto';
    this.audio.dataset.testid = 'player-audio';
    this.audio.addEventListener('timeupdate', () => this.onTime());
    this.audio.addEventListener('ended', () => this.onEnded());
    this.audio.addEventListener('error', () => this.onError());
    for (const type of ['play', 'pause', 'volumechange', 'durationchange', 'seeking'] as const) {
      this.audio.addEventListener(type, () => {
        if (type === 'seeking' || type === 'pause') this.counter?.interrupted();
        this.changed();
      });
    }
    answerMediaKeys({
      resume: () => void this.resume(),
      pause: () => this.audio.pause(),
      previous: () => this.previous(),
      next: () => this.next(),
      seek: (ms) => this.seek(ms),
      positionMs: () => this.positionMs(),
    });
  }

  get current(): Track | null {
    return this.queue.current;
  }

  get playing(): boolean {
    return !this.audio.paused && !this.audio.ended;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Picks up the saved queue, paused where it was left (perhaps on another device). */
  async restore(): Promise<void> {
    const saved = await this.api.json<PlayQueue>('/api/play-queue');
    if (saved.tracks.length === 0 || this.queue.length > 0) return;
    const start = Math.max(
      0,
      saved.tracks.findIndex((track) => track.id === saved.current),
    );
    this.queue.replace(saved.tracks, start);
    this.load(saved.current === null ? 0 : saved.positionMs, false);
  }

  play(tracks: readonly Track[], start = 0, shuffle = false): void {
    if (tracks.length === 0) return;
    this.leaveTrack();
    this.queue.replace(tracks, start, shuffle);
    this.load(0, true);
  }

  playNext(tracks: readonly Track[]): void {
    const wasEmpty = this.queue.length === 0;
    this.queue.playNext(tracks);
    if (wasEmpty) this.load(0, false);
    this.queueChanged();
  }

  add(tracks: readonly Track[]): void {
    const wasEmpty = this.queue.length === 0;
    this.queue.add(tracks);
    if (wasEmpty) this.load(0, false);
    this.queueChanged();
  }

  toggle(): void {
    if (!this.current) return;
    if (this.audio.paused) void this.resume();
    else this.audio.pause();
  }

  next(): void {
    this.leaveTrack();
    if (this.queue.next()) this.load(0, true);
    else this.audio.pause();
  }

  /** As players do: back to the start when past the first seconds, else the track before. */
  previous(): void {
    if (this.positionMs() > 3000) {
      this.seek(0);
      return;
    }
    this.leaveTrack();
    if (this.queue.previous()) this.load(0, true);
  }

  jump(index: number): void {
    this.leaveTrack();
    if (this.queue.jump(index)) this.load(0, true);
  }

  /**
   * An original is sought within the element (byte ranges). A transcode cannot be: it is asked for
   * again from the new position, playing on if it played, and the clock shows the offset added.
   */
  seek(ms: number): void {
    const track = this.current;
    if (!track) return;
    const target = Math.max(0, Math.min(ms, this.durationMs()));
    if (this.live) {
      this.counter?.interrupted();
      const playing = this.playing || this.playWhenLoaded;
      this.audio.pause();
      this.settling.seek(target, playing, (ms, play) => {
        if (this.current === track) void this.setSource(track, this.transcoded ? null : this.audio, ms, play);
      });
    } else this.audio.currentTime = target / 1000;
    this.changed();
  }

  setVolume(volume: number): void {
    this.audio.volume = Math.max(0, Math.min(1, volume));
  }

  setRepeat(mode: RepeatMode): void {
    this.queue.repeat = mode;
    this.changed();
  }

  setShuffle(on: boolean): void {
    this.queue.setShuffle(on);
    this.queueChanged();
  }

  move(from: number, to: number): void {
    this.queue.move(from, to);
    this.queueChanged();
  }

  remove(index: number): void {
    const wasCurrent = index === this.queue.state.index;
    if (wasCurrent) this.leaveTrack();
    this.queue.remove(index);
    if (wasCurrent) {
      if (this.current) this.load(0, this.playing);
      else this.stop();
    }
    this.queueChanged();
  }

  clear(): void {
    this.leaveTrack();
    this.queue.clear();
    this.stop();
    this.queueChanged();
  }

  /** Position and length of the current track, in ms. */
  positionMs(): number {
    return this.settling.pendingMs ?? this.offsetMs + Math.round(this.audio.currentTime * 1000);
  }

  durationMs(): number {
    const known = this.current?.durationMs ?? 0;
    if (known > 0) return known;
    return Number.isFinite(this.audio.duration) ? this.offsetMs + Math.round(this.audio.duration * 1000) : 0;
  }

  destroy(): void {
    this.saver.cancel();
    this.settling.cancel();
    this.audio.pause();
    this.audio.removeAttribute('src');
    this.audio.load();
    if (this.coverUrl) URL.revokeObjectURL(this.coverUrl);
    this.listeners.clear();
  }

  private load(positionMs: number, autoplay: boolean): void {
    const track = this.current;
    if (!track) return;
    this.counter = new PlayCounter(track.durationMs);
    this.settling.cancel();
    this.transcoded = false;
    this.live = false;
    this.offsetMs = 0;
    this.renewed = false;
    this.playWhenLoaded = false;
    void this.setSource(track, this.audio, positionMs, autoplay);
    void this.showCover(track);
    this.queueChanged();
  }

  /**
   * Points the audio element at the track with a stream token, fetched (or renewed) first. `probe`
   * null asks for the transcode. A load started meanwhile wins: this one then does nothing.
   */
  private async setSource(
    track: Track,
    probe: HTMLAudioElement | null,
    positionMs: number,
    autoplay: boolean,
    renew = false,
  ): Promise<void> {
    const load = ++this.loads;
    let token: string;
    try {
      token = await (renew ? this.streamTokens.renew() : this.streamTokens.get());
    } catch (error) {
      // A refused session signs the page out (api.ts); anything else is worth a message.
      if (load === this.loads) this.messages.error(error);
      return;
    }
    if (load !== this.loads || this.current !== track) return;
    const address = streamUrl(track, token, probe, positionMs);
    this.live = address.transcoded;
    // A transcode starts where it was asked to; an original is sought in.
    this.offsetMs = address.transcoded ? positionMs : 0;
    this.audio.src = address.url;
    if (positionMs > 0 && !address.transcoded) this.audio.currentTime = positionMs / 1000;
    if (autoplay || this.playWhenLoaded) {
      this.playWhenLoaded = false;
      await this.resume();
    }
  }

  private async resume(): Promise<void> {
    if (!this.audio.getAttribute('src')) {
      this.playWhenLoaded = this.current !== null;
      return;
    }
    try {
      await this.audio.play();
      const track = this.current;
      if (track && this.logs)
        await this.api.json('/api/now-playing', { json: { id: track.id, device: deviceLabel() } });
    } catch (error) {
      // A pause or a new track while starting interrupts play(): nothing went wrong.
      if (error instanceof DOMException && error.name === 'AbortError') return;
      this.messages.error(error);
    }
  }

  private stop(): void {
    this.loads += 1;
    this.settling.cancel();
    this.playWhenLoaded = false;
    this.audio.pause();
    this.audio.removeAttribute('src');
    this.audio.load();
    this.counter = null;
    this.live = false;
    this.offsetMs = 0;
    this.changed();
  }

  private onTime(): void {
    const track = this.current;
    if (track && !this.audio.paused && this.counter?.heard(this.positionMs())) void this.log('play', track);
    if (this.playing) this.saver.playing();
    this.changed();
  }

  private onEnded(): void {
    this.leaveTrack();
    if (this.queue.next(true)) this.load(0, true);
    else this.changed();
  }

  /**
   * The element could not play its address, and does not say why. Its token may have been refused
   * (expired while paused, or ended by a password change): first once more with a new token; then,
   * since the browser may not play the original (WMA, ALAC in M4A, …), once more transcoded.
   */
  private onError(): void {
    const track = this.current;
    if (!track || !this.audio.getAttribute('src')) return;
    const position = this.positionMs();
    if (!this.renewed) {
      this.renewed = true;
      void this.setSource(track, this.transcoded ? null : this.audio, position, true, true);
      return;
    }
    if (!this.transcoded) {
      this.transcoded = true;
      void this.setSource(track, null, position, true);
      return;
    }
    this.messages.error(`“${track.name}” could not be played.`);
  }

  /** The listener leaves the current track: a skip when it was heard, but not long enough. */
  private leaveTrack(): void {
    const track = this.current;
    if (track && this.counter?.skipped) void this.log('skip', track);
    this.counter = null;
  }

  private async log(type: 'play' | 'skip', track: Track): Promise<void> {
    if (!this.logs) return;
    try {
      await this.api.json(`/api/stats/log-${type}`, { json: { id: track.id, device: deviceLabel() } });
    } catch (error) {
      this.messages.error(error);
    }
  }

  private queueChanged(): void {
    this.saver.changed();
    this.changed();
  }

  private changed(): void {
    showInMediaSession(this.current, this.playing, this.coverUrl);
    for (const listener of this.listeners) listener();
  }

  private async showCover(track: Track): Promise<void> {
    if (!track.album) return;
    try {
      const blob = await this.api.blob(`/api/art/album/${encodeURIComponent(track.album.id)}?size=512`);
      if (this.current !== track) return;
      if (this.coverUrl) URL.revokeObjectURL(this.coverUrl);
      this.coverUrl = URL.createObjectURL(blob);
      this.changed();
    } catch {
      // No cover: the player shows its placeholder.
    }
  }

  get cover(): string | null {
    return this.current ? this.coverUrl : null;
  }
}
