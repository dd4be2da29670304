import type { Services } from '../../../services/create-services.js';
import type { RadioStationFields } from '../../../services/radio-station-service.js';
import type { MethodRequest } from '../types.js';

/** Internet radio stations: listed for everyone, kept by Admins (method-table.ts). */
export function radioMethods(services: Services) {
  const { radioStations } = services;
  const fields = ({ params }: MethodRequest): RadioStationFields => ({
    name: params.required('name'),
    streamUrl: params.required('streamUrl'),
    homePageUrl: params.string('homepageUrl') ?? null,
  });
  return {
    getInternetRadioStations: () => ({
      internetRadioStations: {
        internetRadioStation: radioStations.list().map((station) => ({
          id: station.id,
          name: station.name,
          streamUrl: station.streamUrl,
          homePageUrl: station.homePageUrl ?? undefined,
        })),
      },
    }),

    createInternetRadioStation: async (request: MethodRequest) => {
      await radioStations.create(fields(request));
      return {};
    },

    updateInternetRadioStation: async (request: MethodRequest) => {
      await radioStations.update(request.params.required('id'), fields(request));
      return {};
    },

    deleteInternetRadioStation: async (request: MethodRequest) => {
      await radioStations.delete(request.params.required('id'));
      return {};
    },
  };
}
