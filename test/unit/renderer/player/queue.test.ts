import { describe, expect, it } from 'vitest';
import { Queue } from '../../../../renderer/player/queue.js';

const tracks = (...ids: string[]) => ids.map((id) => ({ id }));
const ids = (queue: Queue<{ id: string }>) => queue.state.tracks.map((track) => track.id);
/** A "random" source that always picks the last candidate: shuffling then reverses the rest. */
const last = () => 0.999;

describe('the player queue', () => {
  it('plays an album from the track the listener picked, to its end, then stops', () => {
    const queue = new Queue();
    queue.replace(tracks('a', 'b', 'c'), 1);
    expect(queue.current?.id).toBe('b');
    expect(queue.next()?.id).toBe('c');
    expect(queue.next()).toBeNull();
    expect(queue.current?.id).toBe('c');
  });

  it('repeats the whole queue, or one track when it ends but not when Next is pressed', () => {
    const queue = new Queue();
    queue.replace(tracks('a', 'b'), 1);
    queue.repeat = 'all';
    expect(queue.next()?.id).toBe('a');
    expect(queue.previous()?.id).toBe('b');
    queue.repeat = 'one';
    expect(queue.next(true)?.id).toBe('b');
    expect(queue.next()?.id).toBe('a');
    queue.repeat = 'off';
    queue.jump(1);
    expect(queue.next()).toBeNull();
  });

  it('puts "play next" right after the current track and "add" at the end', () => {
    const queue = new Queue();
    queue.replace(tracks('a', 'b', 'c'));
    queue.playNext(tracks('x', 'y'));
    queue.add(tracks('z'));
    expect(ids(queue)).toEqual(['a', 'x', 'y', 'b', 'c', 'z']);
    const empty = new Queue();
    empty.add(tracks('q'));
    expect(empty.current?.id).toBe('q');
  });

  it('keeps the current track current when tracks are moved or removed around it', () => {
    const queue = new Queue();
    queue.replace(tracks('a', 'b', 'c', 'd'), 2);
    queue.move(0, 3);
    expect(ids(queue)).toEqual(['b', 'c', 'd', 'a']);
    expect(queue.current?.id).toBe('c');
    queue.remove(0);
    expect(queue.current?.id).toBe('c');
    // Removing the current track makes the next one current…
    queue.remove(0);
    expect(ids(queue)).toEqual(['d', 'a']);
    expect(queue.current?.id).toBe('d');
    // …or the one before, when it was the last.
    queue.jump(1);
    queue.remove(1);
    expect(queue.current?.id).toBe('d');
    queue.clear();
    expect(queue.current).toBeNull();
    expect(queue.state.index).toBe(-1);
  });

  it('shuffles what comes after the current track, and turning shuffle off restores the order', () => {
    const queue = new Queue<{ id: string }>(last);
    queue.replace(tracks('a', 'b', 'c', 'd'), 1);
    queue.setShuffle(true);
    expect(queue.current?.id).toBe('b');
    expect(ids(queue).slice(0, 2)).toEqual(['a', 'b']);
    expect([...ids(queue)].sort()).toEqual(['a', 'b', 'c', 'd']);
    queue.add(tracks('e'));
    queue.next();
    const playing = queue.current?.id;
    queue.setShuffle(false);
    expect(ids(queue)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(queue.current?.id).toBe(playing);
  });

  it('shuffles a whole album when it is started with Shuffle', () => {
    const queue = new Queue<{ id: string }>(() => 0);
    queue.replace(tracks('a', 'b', 'c', 'd'), 0, true);
    expect(queue.state.shuffle).toBe(true);
    expect(ids(queue)).not.toEqual(['a', 'b', 'c', 'd']);
    expect(queue.state.index).toBe(0);
  });
});
