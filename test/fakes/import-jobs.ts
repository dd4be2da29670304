import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ImportJob } from '../../server/domain/import-job.js';
import type { ImportJobsStore } from '../../server/domain/ports.js';

/**
 * Import jobs in memory. An upload is the request's own temp file, left where it is: `uploadPath`
 * names it until `removeUpload` deletes it, as ImportJobsRepo does with the copy it keeps.
 */
export class FakeImportJobs implements ImportJobsStore {
  private readonly jobs = new Map<string, ImportJob>();
  private readonly uploads = new Map<string, string>();

  uploadPath(id: string): string {
    return this.uploads.get(id) ?? join(tmpdir(), `melon-fake-import-${id}.upload`);
  }

  keepUpload(id: string, tempPath: string): Promise<void> {
    this.uploads.set(id, tempPath);
    return Promise.resolve();
  }

  async removeUpload(id: string): Promise<void> {
    const path = this.uploads.get(id);
    this.uploads.delete(id);
    if (path !== undefined) await rm(path, { force: true });
  }

  save(job: ImportJob): Promise<void> {
    // A copy, as the repo's JSON file is: later changes to the job are not saved until saved again.
    this.jobs.set(job.id, structuredClone(job));
    return Promise.resolve();
  }

  list(): Promise<ImportJob[]> {
    return Promise.resolve([...this.jobs.values()].map((job) => structuredClone(job)));
  }
}
