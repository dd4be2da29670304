import type { RadioStationsStore } from '../../server/domain/ports.js';
import type { RadioStationRecord } from '../../server/domain/radio-station.js';

/** The household's radio stations in memory, in the order they were added, with RadioStationsRepo's limit. */
export class FakeRadioStationsStore implements RadioStationsStore {
  private stations: RadioStationRecord[] = [];

  list(): readonly RadioStationRecord[] {
    return this.stations;
  }

  add(station: RadioStationRecord, max: number): Promise<'added' | 'too_many'> {
    if (this.stations.length >= max) return Promise.resolve('too_many');
    this.stations.push(station);
    return Promise.resolve('added');
  }

  update(
    id: string,
    patch: Pick<RadioStationRecord, 'name' | 'streamUrl' | 'homePageUrl'>,
  ): Promise<RadioStationRecord | undefined> {
    const station = this.stations.find((candidate) => candidate.id === id);
    if (station) Object.assign(station, patch);
    return Promise.resolve(station ? { ...station } : undefined);
  }

  remove(id: string): Promise<boolean> {
    const before = this.stations.length;
    this.stations = this.stations.filter((station) => station.id !== id);
    return Promise.resolve(this.stations.length < before);
  }
}
