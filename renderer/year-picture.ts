/**
 * "Save as picture": the year's story drawn on a canvas in the page and downloaded as a PNG, sized
 * for a phone's screen and a family chat. The colours are fixed (the light theme's), not the page's
 * theme: a picture is looked at elsewhere. Pictures already loaded for the cards are drawn again;
 * they are the page's own object URLs, so the canvas stays exportable.
 */
import type { StoryCard } from './year-story.js';

const WIDTH = 1080;
const PAD = 56;
const GAP = 28;
const CARD_H = 250;
const HEAD_H = 190;
const FOOT_H = 90;
const PICTURE = 150;
const COLOURS = {
  bg: '#f6f7f4',
  card: '#ffffff',
  text: '#1d2321',
  muted: '#5f6b66',
  accent: '#1d7a45',
  accentText: '#ffffff',
  melon: '#ff6f61',
};
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** The lines of `text` that fit `width`, at most `max`, the last cut with an ellipsis. */
function lines(ctx: CanvasRenderingContext2D, text: string, width: number, max: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/u)) {
    const next = line ? `${line} ${word}` : word;
    if (ctx.measureText(next).width <= width || !line) line = next;
    else {
      out.push(line);
      line = word;
    }
  }
  if (line) out.push(line);
  if (out.length <= max) return out;
  const kept = out.slice(0, max);
  let last = `${kept[max - 1]!}…`;
  while (ctx.measureText(last).width > width && last.length > 1) last = `${last.slice(0, -2)}…`;
  kept[max - 1] = last;
  return kept;
}

function roundedRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number) {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

function drawCard(
  ctx: CanvasRenderingContext2D,
  card: StoryCard,
  picture: HTMLImageElement | undefined,
  x: number,
  y: number,
  w: number,
  lead: boolean,
): void {
  ctx.fillStyle = lead ? COLOURS.accent : COLOURS.card;
  roundedRect(ctx, x, y, w, CARD_H, 28);
  ctx.fill();
  let textX = x + 36;
  if (picture && picture.complete && picture.naturalWidth > 0) {
    const py = y + (CARD_H - PICTURE) / 2;
    ctx.save();
    if (card.picture?.kind === 'artist') {
      ctx.beginPath();
      ctx.arc(textX + PICTURE / 2, py + PICTURE / 2, PICTURE / 2, 0, 2 * Math.PI);
    } else roundedRect(ctx, textX, py, PICTURE, PICTURE, 16);
    ctx.clip();
    ctx.drawImage(picture, textX, py, PICTURE, PICTURE);
    ctx.restore();
    textX += PICTURE + 32;
  }
  const width = x + w - 36 - textX;
  ctx.textBaseline = 'top';
  ctx.fillStyle = lead ? COLOURS.accentText : COLOURS.muted;
  ctx.font = `600 26px ${FONT}`;
  ctx.fillText(lines(ctx, card.title.toUpperCase(), width, 1)[0]!, textX, y + 34);
  ctx.fillStyle = lead ? COLOURS.accentText : COLOURS.text;
  ctx.font = `700 ${lead ? 60 : 44}px ${FONT}`;
  const big = lines(ctx, card.headline, width, lead ? 1 : 2);
  big.forEach((line, i) => ctx.fillText(line, textX, y + 78 + i * (lead ? 68 : 52)));
  ctx.fillStyle = lead ? COLOURS.accentText : COLOURS.muted;
  ctx.font = `24px ${FONT}`;
  const small = lines(ctx, card.detail, width, 2);
  const smallTop = y + CARD_H - 36 - small.length * 30;
  small.forEach((line, i) => ctx.fillText(line, textX, smallTop + i * 30));
}

/** Draws the story: a title, the first card across the width, then two cards a row. */
export function drawStory(
  canvas: HTMLCanvasElement,
  title: string,
  cards: readonly StoryCard[],
  pictures: ReadonlyMap<StoryCard['key'], HTMLImageElement>,
): void {
  const [lead, ...rest] = cards;
  const rows = (lead ? 1 : 0) + Math.ceil(rest.length / 2);
  canvas.width = WIDTH;
  canvas.height = HEAD_H + rows * (CARD_H + GAP) + FOOT_H;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('This browser cannot draw pictures');
  ctx.fillStyle = COLOURS.bg;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = COLOURS.melon;
  ctx.beginPath();
  ctx.arc(PAD + 22, 96, 22, 0, 2 * Math.PI);
  ctx.fill();
  ctx.fillStyle = COLOURS.text;
  ctx.textBaseline = 'middle';
  ctx.font = `800 64px ${FONT}`;
  ctx.fillText(lines(ctx, title, WIDTH - 2 * PAD - 64, 1)[0]!, PAD + 64, 98);
  let y = HEAD_H;
  if (lead) {
    drawCard(ctx, lead, pictures.get(lead.key), PAD, y, WIDTH - 2 * PAD, true);
    y += CARD_H + GAP;
  }
  const half = (WIDTH - 2 * PAD - GAP) / 2;
  rest.forEach((card, i) => {
    const x = PAD + (i % 2) * (half + GAP);
    // A lone last card takes the whole row.
    const alone = i === rest.length - 1 && i % 2 === 0;
    drawCard(ctx, card, pictures.get(card.key), x, y, alone ? WIDTH - 2 * PAD : half, false);
    if (i % 2 === 1 || alone) y += CARD_H + GAP;
  });
  ctx.fillStyle = COLOURS.muted;
  ctx.textBaseline = 'middle';
  ctx.font = `24px ${FONT}`;
  ctx.fillText('Made with Melon', PAD, canvas.height - FOOT_H / 2);
}

/** The story as a PNG download named for its year. */
export async function savePicture(
  title: string,
  cards: readonly StoryCard[],
  pictures: ReadonlyMap<StoryCard['key'], HTMLImageElement>,
  year: number,
): Promise<void> {
  const canvas = document.createElement('canvas');
  drawStory(canvas, title, cards, pictures);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('The picture could not be made');
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `melon-${year}${title.startsWith('Our') ? '-household' : ''}.png`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The download has started from the URL by now; a later turn lets it go.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
