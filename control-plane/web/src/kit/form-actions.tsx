/** A form's buttons: the submit (disabled while busy) and, when the form can be closed, Cancel. */
export const FormActions = (props: {
  submit: string;
  busy: boolean;
  onCancel?: (() => void) | undefined;
}) => (
  <div class="form-actions">
    <button type="submit" class="button primary" disabled={props.busy}>
      {props.submit}
    </button>
    {props.onCancel && (
      <button type="button" class="button" onClick={props.onCancel}>
        Cancel
      </button>
    )}
  </div>
);
