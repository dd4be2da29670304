/**
 * An internet radio station the household keeps a link to. Melon only stores it: the app that plays
 * it fetches the stream itself.
 */
export interface RadioStationRecord {
  id: string;
  name: string;
  streamUrl: string;
  homePageUrl: string | null;
  /** epoch ms */
  createdAt: number;
}
