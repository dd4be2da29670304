import { copyFile, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoCode } from '../fs/errno.js';
import { writeFileAtomic } from '../fs/atomic-file.js';

/**
 * The imports of listening history (`imports/` in the data folder): each job's record (its request,
 * progress and report) as `<id>.json`, and the uploaded file as `<id>.upload` until the job is done.
 * A job that was running when the server stopped is found here at the next start and run again.
 */
export class ImportJobsRepo<Job extends { id: string }> {
  private constructor(private readonly dir: string) {}

  static async open<Job extends { id: string }>(dir: string): Promise<ImportJobsRepo<Job>> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return new ImportJobsRepo<Job>(dir);
  }

  uploadPath(id: string): string {
    return join(this.dir, `${id}.upload`);
  }

  /**
   * Keeps an upload: the body parser's temp file is moved (or copied, across file systems) here,
   * so the job outlives the request, whose temp files are removed when it ends.
   */
  async keepUpload(id: string, tempPath: string): Promise<void> {
    const target = this.uploadPath(id);
    try {
      await rename(tempPath, target);
    } catch (error) {
      if (errnoCode(error) !== 'EXDEV') throw error;
      await copyFile(tempPath, target);
    }
  }

  async removeUpload(id: string): Promise<void> {
    await rm(this.uploadPath(id), { force: true });
  }

  save(job: Job): Promise<void> {
    return writeFileAtomic(join(this.dir, `${job.id}.json`), JSON.stringify(job), 0o600);
  }

  async list(): Promise<Job[]> {
    const jobs: Job[] = [];
    for (const name of await readdir(this.dir)) {
      if (!name.endsWith('.json') || name.startsWith('.')) continue;
      try {
        jobs.push(JSON.parse(await readFile(join(this.dir, name), 'utf8')) as Job);
      } catch {
        // A record that cannot be read is skipped; its upload stays for a person to look at.
      }
    }
    return jobs;
  }
}
