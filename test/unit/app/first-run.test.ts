import { describe, expect, it } from 'vitest';
import { firstRunDialog } from '../../../app/first-run.js';

describe('firstRunDialog', () => {
  it('shows a generated password once, with a copy button', () => {
    const dialog = firstRunDialog({ username: 'admin', generatedPassword: 'pw-1234567890abcdefgh' });
    expect(dialog?.message).toContain('"admin"');
    expect(dialog?.detail.split('\n')[0]).toBe('Password: pw-1234567890abcdefgh');
    expect(dialog?.buttons[dialog.copyButton]).toBe('Copy password');
  });

  it('shows nothing when the password was configured or on later starts', () => {
    expect(firstRunDialog({ username: 'admin', generatedPassword: null })).toBeNull();
    expect(firstRunDialog(null)).toBeNull();
  });
});
