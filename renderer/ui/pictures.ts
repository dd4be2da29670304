import type { Api } from '../api.js';
import { clickButton, h } from '../dom.js';

/**
 * Pictures on the artwork page: thumbnails fetched with the token (object URLs, revoked when the
 * view goes), an enlarged view, and an upload area that takes a dropped file or a styled picker.
 */
export class ObjectUrls {
  private urls: string[] = [];

  add(blob: Blob): string {
    const url = URL.createObjectURL(blob);
    this.urls.push(url);
    return url;
  }

  revokeAll(): void {
    for (const url of this.urls) URL.revokeObjectURL(url);
    this.urls = [];
  }
}

/** An <img> that loads `src` through the API; a failure shows a muted placeholder, not a toast. */
export function apiImage(
  api: Api,
  urls: ObjectUrls,
  src: string,
  alt: string,
  className = 'thumb-img',
): HTMLImageElement {
  const img = h('img', { class: className, attrs: { alt, 'data-src': src, decoding: 'async' } });
  api
    .blob(src)
    .then((blob) => {
      img.src = urls.add(blob);
    })
    .catch(() => img.classList.add('thumb-missing'));
  return img;
}

/** The picture at full size in a dialog; Escape or Close returns focus to the thumbnail. */
export function enlarge(api: Api, urls: ObjectUrls, src: string, title: string): void {
  const trigger = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const dialog = h(
    'dialog',
    { class: 'confirm enlarged', testid: 'art-enlarged', attrs: { 'aria-label': title } },
    h('h2', { text: title }),
    apiImage(api, urls, src, title, 'enlarged-img'),
    h(
      'div',
      { class: 'actions' },
      clickButton('button primary', 'art-enlarged-close', 'Close', () => dialog.close()),
    ),
  );
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (trigger?.isConnected) trigger.focus();
  });
  document.body.appendChild(dialog);
  dialog.showModal();
}

let uploadIds = 0;

/** A drop zone with a styled file picker; `send` gets the chosen file. */
export function uploadZone(label: string, send: (file: File) => Promise<void>): HTMLElement {
  const id = `upload-${++uploadIds}`;
  const input = h('input', {
    class: 'visually-hidden',
    testid: 'art-upload-file',
    attrs: { id, type: 'file', accept: 'image/jpeg,image/png,image/webp' },
  });
  const status = h('span', { class: 'muted', text: 'or drop a JPEG, PNG or WebP image here' });
  const zone = h(
    'div',
    { class: 'upload-zone', testid: 'art-upload-zone' },
    input,
    h('label', { class: 'button', text: label, attrs: { for: id } }),
    status,
  );
  const take = (file: File | undefined) => {
    if (!file) return;
    zone.classList.add('busy');
    status.textContent = `Uploading ${file.name}…`;
    void send(file).finally(() => {
      zone.classList.remove('busy');
      status.textContent = 'or drop a JPEG, PNG or WebP image here';
      input.value = '';
    });
  };
  input.addEventListener('change', () => take(input.files?.[0]));
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('dragging');
    take(event.dataTransfer?.files[0]);
  });
  return zone;
}
