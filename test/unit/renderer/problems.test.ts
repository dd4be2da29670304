import { describe, expect, it } from 'vitest';
import { UPLOAD_LIMIT_BYTES } from '../../../server/http/body.js';
import { IMPORT_UPLOAD_LIMIT_BYTES } from '../../../server/http/native/handlers/history.js';
import { ApiError } from '../../../renderer/api.js';
import { explain, IMPORT_TOO_LARGE } from '../../../renderer/problems.js';

const tooLarge = new ApiError(413, 'payload_too_large', 'The request body is too large');

describe('explain', () => {
  it('gives an upload over its limit the limit the server keeps, the import its own', () => {
    // The sentences name the limits in MB and GB (MiB and GiB on the server).
    expect(explain(tooLarge).text).toContain(`at most ${UPLOAD_LIMIT_BYTES / 2 ** 20} MB`);
    const imported = explain(tooLarge, { payload_too_large: IMPORT_TOO_LARGE });
    expect(imported.text).toBe(IMPORT_TOO_LARGE);
    expect(imported.text).toContain(`at most ${IMPORT_UPLOAD_LIMIT_BYTES / 2 ** 30} GB`);
    expect(imported.detail).toBe('The request body is too large');
  });

  it('words only the codes a view gives, and every other code as usual', () => {
    const other = new ApiError(404, 'user_not_found', 'User x not found');
    expect(explain(other, { payload_too_large: IMPORT_TOO_LARGE })).toEqual(explain(other));
  });
});
