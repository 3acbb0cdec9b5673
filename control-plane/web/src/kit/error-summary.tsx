/**
 * A form's error summary (the GOV.UK pattern): after a submit fails, a box at the top of the form
 * with a heading, the form's own problem, and one link per bad field, takes the focus, so the problems
 * are in view and read out wherever the page was scrolled. Each link is named by the field's label,
 * described by the field's problem note (read out with it; not repeated on screen, where the note
 * stands beside the field), and moves the focus to that field.
 *
 * The one rule for a form: `<ErrorSummary problems={problems} />` is the form's first child, and
 * `problems` is a new object after every submit (a failed one names the problems; a good one is
 * empty). The summary reads the fields from the form itself after it rendered: every control marked
 * `aria-invalid` (kit/field.tsx's `describedBy` does it) becomes a link, labelled by its label and its
 * problem note. A problem that no control carries (one shown beside a group, or a field the form does
 * not show) is listed too: linked to where it is shown, or as text.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Problems } from './field.js';

interface Item {
  /** The id of what the link focuses; none when the problem is shown nowhere else. */
  target?: string;
  text: string;
  /** The id of the problem note that describes the link. */
  note?: string;
}

const textOf = (el: Element | null | undefined) => el?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

/** A control's name as a person reads it: its label, aria-label or aria-labelledby. */
const labelOf = (c: HTMLElement) => {
  const own = c.getAttribute('aria-label');
  if (own) return own;
  const by = c.getAttribute('aria-labelledby');
  if (by)
    return by
      .split(/\s+/)
      .map((id) => textOf(document.getElementById(id)))
      .join(' ');
  const labels = (c as HTMLInputElement).labels;
  return labels?.length ? textOf(labels[0]) : (c.getAttribute('name') ?? '');
};

/** The problem note tied to a control (its `-problem` id in aria-describedby), else its first note. */
const noteOf = (c: HTMLElement) => {
  const ids = (c.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  const notes = ids.map((id) => document.getElementById(id));
  return notes.find((el) => el?.id.endsWith('-problem')) ?? notes[0] ?? null;
};

let made = 0;

const collect = (form: Element, problems: Problems, formProblem: string | null | undefined): Item[] => {
  const items: Item[] = [];
  const told = new Set<string>(formProblem ? [formProblem] : []);
  for (const c of form.querySelectorAll<HTMLElement>('[aria-invalid="true"]')) {
    if (!c.id) continue;
    const note = noteOf(c);
    const problem = textOf(note);
    told.add(problem);
    items.push({ target: c.id, text: labelOf(c) || problem || c.id, ...(note?.id ? { note: note.id } : {}) });
  }
  for (const [field, message] of Object.entries(problems)) {
    if (field === 'form' || !message || told.has(message)) continue;
    told.add(message);
    // Shown beside a group (an error box or a note in the form)? Link there.
    const shown = [...form.querySelectorAll<HTMLElement>('.field-problem, .error-box')].find((el) =>
      textOf(el).includes(message),
    );
    if (shown && !shown.id) shown.id = `problem-${++made}`;
    items.push({ ...(shown ? { target: shown.id } : {}), text: message });
  }
  return items;
};

const focusTarget = (id: string) => {
  const el = document.getElementById(id);
  if (!el) return;
  if (!el.matches('input, select, textarea, button, a[href], [tabindex]')) el.tabIndex = -1;
  el.focus({ preventScroll: true });
  el.scrollIntoView({ block: 'center' });
};

export const ErrorSummary = (props: { problems: Problems | null | undefined; form?: string | null }) => {
  const slot = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [items, setItems] = useState<Item[] | null>(null);
  const [id] = useState(() => `error-summary-${++made}`);
  /** Set by the form's submit: only the outcome of a submit moves the focus, never an edit after it. */
  const submitted = useRef(false);
  const focusNext = useRef(false);
  const formProblem = props.form ?? props.problems?.form;

  useEffect(() => {
    const form = slot.current?.closest('form');
    if (!form) return;
    const mark = () => {
      submitted.current = true;
    };
    form.addEventListener('submit', mark, true);
    return () => form.removeEventListener('submit', mark, true);
  }, []);

  // After the form has rendered the problems beside its fields: read them from it.
  useLayoutEffect(() => {
    const p = props.problems ?? {};
    const any = formProblem || Object.entries(p).some(([k, v]) => k !== 'form' && v);
    const form = slot.current?.closest('form');
    if (!any) {
      setItems(null);
      // A submit still waiting for the server keeps `submitted`: its failure, when it comes, takes the focus.
      return;
    }
    setItems(collect(form ?? slot.current?.parentElement ?? document.body, p, formProblem));
    if (submitted.current || !form) {
      submitted.current = false;
      focusNext.current = true;
    }
  }, [props.problems, formProblem]);

  useEffect(() => {
    if (!items || !focusNext.current) return;
    focusNext.current = false;
    box.current?.focus({ preventScroll: true });
    box.current?.scrollIntoView({ block: 'start' });
  }, [items]);

  return (
    <div ref={slot} class="error-summary-slot">
      {items && (
        <div ref={box} class="error-summary" role="alert" tabIndex={-1} aria-labelledby={`${id}-title`}>
          <h2 id={`${id}-title`}>There is a problem</h2>
          {formProblem && <p>{formProblem}</p>}
          {items.length > 0 && (
            <ul>
              {items.map((it, i) => (
                <li key={`${i}:${it.text}`}>
                  {it.target ? (
                    <a
                      href={`#${it.target}`}
                      aria-describedby={it.note}
                      onClick={(e) => {
                        e.preventDefault();
                        focusTarget(it.target!);
                      }}
                    >
                      {it.text}
                    </a>
                  ) : (
                    it.text
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
};
