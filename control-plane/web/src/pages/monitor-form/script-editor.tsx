/**
 * A browser monitor's script: a monospace editor (Tab indents, line numbers beside it), what a script
 * can use, and the API's problem (`script`) under it.
 */
import { useRef } from 'preact/hooks';
import { describedBy, FieldNotes } from '../../kit/field.js';
import { followLink } from '../../router.js';

const INDENT = '  ';

/** Tab indents (Shift+Tab outdents) the selected lines; Escape then Tab leaves the editor, as usual. */
const onKey = (e: KeyboardEvent, set: (v: string) => void, free: { current: boolean }) => {
  const ta = e.currentTarget as HTMLTextAreaElement;
  if (e.key === 'Escape') {
    free.current = true;
    return;
  }
  if (e.key !== 'Tab' || free.current || e.ctrlKey || e.altKey || e.metaKey) return;
  e.preventDefault();
  const { value, selectionStart: a, selectionEnd: b } = ta;
  const first = value.lastIndexOf('\n', a - 1) + 1;
  if (!e.shiftKey && a === b) {
    ta.setRangeText(INDENT, a, b, 'end');
  } else {
    const block = value.slice(first, b);
    const lines = block.split('\n');
    const changed = lines.map((l) => (e.shiftKey ? l.replace(/^ {1,2}/, '') : `${INDENT}${l}`)).join('\n');
    ta.setRangeText(changed, first, b, 'select');
  }
  set(ta.value);
};

export const ScriptEditor = (props: {
  value: string;
  problem: string | undefined;
  onChange: (v: string) => void;
}) => {
  const gutter = useRef<HTMLPreElement>(null);
  const free = useRef(false);
  const lines = props.value.split('\n').length;
  const id = 'mf-script';
  const hint = `${lines} ${lines === 1 ? 'line' : 'lines'}. Tab indents; press Escape, then Tab, to move on.`;
  return (
    <fieldset class="script">
      <legend>Browser script</legend>
      <p class="hint tight" id="mf-script-about">
        JavaScript run by an agent with Chromium, in a sandbox. It can use <code>page</code> (Playwright’s
        page: <code>goto</code>, <code>getByRole</code>, <code>click</code>, <code>fill</code>…),{' '}
        <code>expect</code> (<code>toHaveTitle</code>, <code>toBeVisible</code>, <code>toHaveText</code>…),{' '}
        <code>test.step(name, fn)</code> to time a step, <code>url</code> (the monitor’s URL) and{' '}
        <code>secrets.NAME</code> (a workspace secret, set in{' '}
        <a href="/settings/secrets" onClick={followLink}>
          Settings → Secrets
        </a>
        ; never shown in results). A failure is reported with its step and line, and a screenshot.
      </p>
      <div class="field wide">
        <label for={id}>Script</label>
        <div class={`code-editor${props.problem ? ' invalid' : ''}`}>
          <pre class="gutter" aria-hidden="true" ref={gutter}>
            {Array.from({ length: lines }, (_, i) => `${i + 1}\n`).join('')}
          </pre>
          <textarea
            id={id}
            {...describedBy(id, props.problem, hint)}
            aria-describedby={[props.problem ? `${id}-problem` : '', `${id}-hint`, 'mf-script-about']
              .filter(Boolean)
              .join(' ')}
            rows={Math.min(Math.max(lines + 1, 10), 30)}
            spellcheck={false}
            autoCapitalize="off"
            autoComplete="off"
            wrap="off"
            value={props.value}
            onKeyDown={(e) => onKey(e, props.onChange, free)}
            onBlur={() => {
              free.current = false;
            }}
            onScroll={(e) => {
              if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
            }}
            onInput={(e) => props.onChange(e.currentTarget.value)}
          />
        </div>
        <FieldNotes id={id} problem={props.problem} hint={hint} />
      </div>
    </fieldset>
  );
};
