/**
 * On a phone the section links fold behind one "Menu" button (a disclosure) instead of wrapping to
 * several lines of tabs; on a wide screen the button is not shown and the links always are (CSS).
 * Escape closes the list and gives focus back to the button, so the keyboard is never stranded in a
 * list that has just disappeared.
 */
export function sectionMenu(button: HTMLButtonElement, nav: HTMLElement): { close(): void } {
  const setOpen = (open: boolean): void => {
    button.setAttribute('aria-expanded', String(open));
    nav.classList.toggle('open', open);
  };
  const isOpen = (): boolean => button.getAttribute('aria-expanded') === 'true';
  setOpen(false);
  button.addEventListener('click', () => setOpen(!isOpen()));
  const escape = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape' || !isOpen()) return;
    event.preventDefault();
    setOpen(false);
    button.focus();
  };
  button.addEventListener('keydown', escape);
  nav.addEventListener('keydown', escape);
  // Choosing a section, or tapping anywhere else, folds the list away.
  nav.addEventListener('click', (event) => {
    if ((event.target as Element).closest('a')) setOpen(false);
  });
  document.addEventListener('click', (event) => {
    const target = event.target as Node;
    if (isOpen() && !button.contains(target) && !nav.contains(target)) setOpen(false);
  });
  return { close: () => setOpen(false) };
}
