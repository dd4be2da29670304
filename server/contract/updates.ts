import { z } from 'zod';
import { count } from './common.js';

export const updateCheckSchema = z
  .object({
    UpdateAvailable: z.boolean(),
    CurrentVersion: z.string(),
    LatestVersion: z.string(),
    ReleaseNotes: z.string().optional().meta({ description: 'Only when an update is available' }),
    Source: z.string().meta({ description: 'The releases page the server reads' }),
    CheckedAt: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'When the server last asked; null before the first time' }),
    Schedule: z
      .enum(['daily', 'off'])
      .meta({ description: 'daily: the server asks at most once a day; off: only when an Admin asks' }),
    ScheduleLocked: z.boolean().meta({
      description: 'MELON_UPDATE_CHECK=off is set: the Admin switch cannot turn the daily check on',
    }),
    LastCheckFailed: z.boolean().meta({ description: 'The last request failed; Melon tries again later' }),
  })
  .meta({ id: 'UpdateCheck' });
export type UpdateCheckAnswer = Pick<
  UpdateCheck,
  'UpdateAvailable' | 'CurrentVersion' | 'LatestVersion' | 'ReleaseNotes'
>;
export type UpdateCheck = z.output<typeof updateCheckSchema>;

export const updateStatusSchema = z
  .object({
    state: z.enum(['idle', 'checking', 'downloading', 'verifying', 'installing', 'failed']),
    percent: z.number().min(0).max(100),
    bytesPerSecond: z.number().min(0),
    transferred: count(),
    total: count(),
    version: z.string().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'UpdateStatus' });
export type UpdateStatus = z.output<typeof updateStatusSchema>;
export type UpdateState = UpdateStatus['state'];

/** The answer of `update-melon`: up to date, or installing (the server exits once it is sent). */
export const installAnswerSchema = z.union([
  z.object({ status: z.literal('up_to_date') }),
  z.object({ status: z.literal('installing'), version: z.string() }),
]);
export type InstallAnswer = z.output<typeof installAnswerSchema>;

/** `POST /api/settings/update-check`: the Admin's switch for the daily check. */
export const updateScheduleSchema = z
  .object({
    Schedule: z.enum(['daily', 'off']),
    ScheduleLocked: z.boolean(),
  })
  .meta({ id: 'UpdateSchedule' });
