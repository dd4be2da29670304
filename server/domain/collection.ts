/** A playlist and a collection are the same record kept in two lists. */
export type CollectionKind = 'playlist' | 'collection';

export interface CollectionRecord {
  id: string;
  name: string;
  description: string | null;
  trackIds: string[];
  /** The user id of the creator. */
  owner: string;
  createdAt: number;
  /** epoch ms of the last change (name, description, tracks); absent on records from before. */
  changedAt?: number;
}
