import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { File as TagFile, TagTypes, type XiphComment } from 'node-taglib-sharp';

const run = promisify(execFile);

/** Vorbis comments, each field with one or more values (ARTISTS as Picard and beets write it). */
export type FlacTags = Record<string, string | string[]>;

/**
 * Writes a half-second FLAC file (ffmpeg) with exactly these Vorbis comments (node-taglib-sharp, as
 * ffmpeg writes one value per field): a field given several values is written once per value.
 */
export async function writeTaggedFlac(file: string, tags: FlacTags): Promise<void> {
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-fflags', '+bitexact'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=0.5:sample_rate=8000', '-c:a', 'flac', file],
  ]);
  retagFlac(file, tags);
}

/** Replaces the file's Vorbis comments with these (its audio stays as it is). */
export function retagFlac(file: string, tags: FlacTags): void {
  const tagged = TagFile.createFromPath(file);
  try {
    const comment = tagged.getTag(TagTypes.Xiph, true) as XiphComment;
    for (const field of comment.fieldNames) comment.removeField(field);
    for (const [field, value] of Object.entries(tags))
      comment.setFieldAsStrings(field, ...(Array.isArray(value) ? value : [value]));
    tagged.save();
  } finally {
    tagged.dispose();
  }
}
