import type { Clock } from '../clock.js';
import { newId } from '../domain/ids.js';
import type { RadioStationsStore } from '../domain/ports.js';
import type { RadioStationRecord } from '../domain/radio-station.js';
import { conflict, invalidParameter, notFound } from '../errors.js';

export const MAX_RADIO_STATIONS = 500;
const MAX_NAME = 200;
const MAX_URL = 2048;

export interface RadioStationFields {
  name: string;
  streamUrl: string;
  homePageUrl: string | null;
}

/**
 * The household's internet radio stations: everyone lists them, Admins keep the list (the method
 * table says who). Melon stores the addresses and never fetches them; the app that plays a station
 * opens the stream itself.
 */
export class RadioStationService {
  constructor(
    private readonly stations: RadioStationsStore,
    private readonly clock: Clock,
  ) {}

  list(): readonly RadioStationRecord[] {
    return this.stations.list();
  }

  async create(fields: RadioStationFields): Promise<RadioStationRecord> {
    const station = { id: newId(), ...checked(fields), createdAt: this.clock.now() };
    if ((await this.stations.add(station, MAX_RADIO_STATIONS)) === 'too_many')
      throw conflict('too_many_radio_stations', `Melon keeps at most ${MAX_RADIO_STATIONS} radio stations`);
    return station;
  }

  async update(id: string, fields: RadioStationFields): Promise<RadioStationRecord> {
    const station = await this.stations.update(id, checked(fields));
    if (!station) throw missing(id);
    return station;
  }

  async delete(id: string): Promise<void> {
    if (!(await this.stations.remove(id))) throw missing(id);
  }
}

const missing = (id: string) => notFound('radio_station_not_found', `Radio station '${id}' not found`);

function checked(fields: RadioStationFields): RadioStationFields {
  const name = fields.name.trim();
  if (name === '' || name.length > MAX_NAME)
    throw invalidParameter('name', `A station's name has 1 to ${MAX_NAME} characters`);
  return {
    name,
    streamUrl: webAddress('streamUrl', fields.streamUrl),
    homePageUrl:
      fields.homePageUrl === null || fields.homePageUrl === ''
        ? null
        : webAddress('homepageUrl', fields.homePageUrl),
  };
}

/**
 * An http(s) address without a user name or password in it: every member sees the stations, so a
 * password there would be shown to all of them.
 */
function webAddress(parameter: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidParameter(parameter, `Parameter '${parameter}' must be an http or https address`);
  }
  if (value.length > MAX_URL || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw invalidParameter(
      parameter,
      `Parameter '${parameter}' must be an http or https address of at most ${MAX_URL} characters`,
    );
  if (url.username !== '' || url.password !== '')
    throw invalidParameter(
      parameter,
      `Parameter '${parameter}' must not hold a user name or password: every member sees it`,
    );
  return value;
}
