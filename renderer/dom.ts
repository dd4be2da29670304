/** Tiny DOM helpers: the page builds every element with these, never with innerHTML (CSP and XSS). */
export type Child = Node | string | number | null | undefined | false;

export interface Props {
  class?: string;
  /** Stable hook for tests: becomes `data-testid`. */
  testid?: string;
  text?: string;
  attrs?: Record<string, string | number | boolean | null | undefined>;
  on?: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.class) element.className = props.class;
  if (props.testid) element.dataset.testid = props.testid;
  if (props.text !== undefined) element.textContent = props.text;
  setAttrs(element, props.attrs);
  for (const [type, listener] of Object.entries(props.on ?? {})) {
    element.addEventListener(type, listener as EventListener);
  }
  append(element, children);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | null | undefined> = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag);
  setAttrs(element, attrs);
  append(element, children);
  return element;
}

function setAttrs(element: Element, attrs: Props['attrs']): void {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** Replaces every child of `parent`. */
export function replace(parent: Node, ...children: Child[]): void {
  while (parent.firstChild) parent.removeChild(parent.firstChild);
  append(parent, children);
}

/** A button that is never a form's submit and runs `click` when pressed. */
export function clickButton(
  className: string,
  testid: string,
  text: string,
  click: () => void,
): HTMLButtonElement {
  return h('button', { class: className, testid, text, attrs: { type: 'button' }, on: { click } });
}

/**
 * A button that refuses clicks while its action runs, so a double click does not run it twice. It
 * stays enabled (aria-disabled): a disabled button would drop the keyboard focus, and a dialog
 * opened by the action could not give it back.
 */
export function actionButton(
  label: string,
  testid: string,
  run: () => Promise<unknown>,
  className = 'button',
): HTMLButtonElement {
  const button = h('button', { class: className, testid, text: label, attrs: { type: 'button' } });
  button.addEventListener('click', () => {
    if (button.getAttribute('aria-disabled') === 'true') return;
    button.setAttribute('aria-disabled', 'true');
    button.setAttribute('aria-busy', 'true');
    void run().finally(() => {
      button.removeAttribute('aria-disabled');
      button.removeAttribute('aria-busy');
    });
  });
  return button;
}

/** Runs `run` on submit with the form's button disabled meanwhile, so a double submit sends once. */
export function onSubmit(
  form: HTMLFormElement,
  submit: HTMLButtonElement,
  run: () => Promise<unknown>,
): void {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit.disabled = true;
    void run().finally(() => {
      submit.disabled = false;
    });
  });
}

export function field(label: string, control: HTMLElement, hint?: string): HTMLLabelElement {
  return h(
    'label',
    { class: 'field' },
    h('span', { class: 'field-label', text: label }),
    control,
    hint ? h('small', { text: hint }) : null,
  );
}

/** A card headed by `title`: how every view lays out its sections. */
export function card(title: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'card' }, h('h2', { text: title }), ...children);
}

/** A form's submit button (pair it with onSubmit). */
export function submitButton(label: string, testid: string, className = 'button primary'): HTMLButtonElement {
  return h('button', { class: className, testid, text: label, attrs: { type: 'submit' } });
}

/**
 * Runs `run` once typing in `input` has paused for `ms`, so a search is not sent per keystroke.
 * Returns the cancel for the view's cleanup.
 */
export function onInputSettled(input: HTMLInputElement, ms: number, run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(run, ms);
  });
  return () => clearTimeout(timer);
}

/** Text for screen readers only (styles: .visually-hidden). */
export function srOnly(text: string): HTMLSpanElement {
  return h('span', { class: 'visually-hidden', text });
}

/** A view's one level-one heading; focus moves to it on navigation (main.ts). */
export function viewHeading(text: string, testid = 'view-heading'): HTMLHeadingElement {
  return h('h1', { class: 'view-heading', testid, text, attrs: { tabindex: -1 } });
}

/**
 * A row of toggle buttons, `${testid}-${kind}` each, one pressed at a time (`aria-pressed`): plain
 * buttons in a labelled group, not tabs, so Tab and Enter work as everywhere else.
 */
export function segmented<K extends string>(
  entries: { kind: K; label: string }[],
  testid: string,
  onSelect: (kind: K) => void,
  label = 'Choose one',
): { element: HTMLElement; mark: (kind: K) => void } {
  const element = h(
    'div',
    { class: 'segmented', testid, attrs: { role: 'group', 'aria-label': label } },
    ...entries.map((entry) =>
      h('button', {
        class: 'segment',
        testid: `${testid}-${entry.kind}`,
        text: entry.label,
        attrs: { type: 'button', 'aria-pressed': 'false', 'data-kind': entry.kind },
        on: { click: () => onSelect(entry.kind) },
      }),
    ),
  );
  const mark = (kind: K): void =>
    element.querySelectorAll<HTMLButtonElement>('.segment').forEach((button) => {
      button.setAttribute('aria-pressed', String(button.dataset.kind === kind));
    });
  return { element, mark };
}
