import type { RadioStationsStore } from '../domain/ports.js';
import type { RadioStationRecord } from '../domain/radio-station.js';
import { JsonDocument, type Versioned } from './json-document.js';

interface RadioStationsFile extends Versioned {
  stations: RadioStationRecord[];
}

/** The household's internet radio stations (radio-stations.json), in the order they were added. */
export class RadioStationsRepo implements RadioStationsStore {
  private constructor(private readonly doc: JsonDocument<RadioStationsFile>) {}

  static async open(path: string): Promise<RadioStationsRepo> {
    return new RadioStationsRepo(
      await JsonDocument.open<RadioStationsFile>(path, { schemaVersion: 1, stations: [] }),
    );
  }

  list(): readonly RadioStationRecord[] {
    return this.doc.data.stations;
  }

  add(station: RadioStationRecord, max: number): Promise<'added' | 'too_many'> {
    return this.doc.mutate(
      (data): 'added' | 'too_many' => {
        if (data.stations.length >= max) return 'too_many';
        data.stations.push(station);
        return 'added';
      },
      (outcome) => outcome === 'added',
    );
  }

  update(
    id: string,
    patch: Pick<RadioStationRecord, 'name' | 'streamUrl' | 'homePageUrl'>,
  ): Promise<RadioStationRecord | undefined> {
    return this.doc.mutate(
      (data) => {
        const station = data.stations.find((candidate) => candidate.id === id);
        if (station) Object.assign(station, patch);
        return station ? { ...station } : undefined;
      },
      (changed) => changed !== undefined,
    );
  }

  remove(id: string): Promise<boolean> {
    return this.doc.mutate(
      (data) => {
        const before = data.stations.length;
        data.stations = data.stations.filter((station) => station.id !== id);
        return data.stations.length < before;
      },
      (removed) => removed,
    );
  }

  flush(): Promise<void> {
    return this.doc.flush();
  }
}
