import { notAuthorized } from '../errors.js';

/**
 * What Melon does not have (podcasts, shares, a jukebox), answered as
 * clients expect rather than with 70 "not found": an empty list for reads, and 50 "not authorized"
 * for changes, matching getUser's podcastRole, shareRole and jukeboxRole of false. Apps such as
 * DSub and Ultrasonic show an empty section then instead of an error.
 */
export function absentMethods() {
  const refuse = (what: string) => () => {
    throw notAuthorized(`Melon has no ${what}`);
  };
  return {
    getPodcasts: () => ({ podcasts: {} }),
    getNewestPodcasts: () => ({ newestPodcasts: {} }),
    refreshPodcasts: refuse('podcasts'),
    createPodcastChannel: refuse('podcasts'),
    deletePodcastChannel: refuse('podcasts'),
    deletePodcastEpisode: refuse('podcasts'),
    downloadPodcastEpisode: refuse('podcasts'),
    getShares: () => ({ shares: {} }),
    createShare: refuse('shares'),
    updateShare: refuse('shares'),
    deleteShare: refuse('shares'),
    jukeboxControl: refuse('jukebox'),
  };
}
