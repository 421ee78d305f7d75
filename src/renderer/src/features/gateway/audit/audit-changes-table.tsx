import type { FieldChange, FieldDetail } from './audit-changes.js';
import { sideText, valueText } from './audit-changes.js';

/** A cell of a field table: its text, muted where it stands for no value ("—", "not recorded"). */
interface FieldCell {
  readonly text: string;
  readonly muted?: boolean;
}

/** A small table of fields, one row each, headed by the field's name. */
function FieldTable({
  label,
  testId,
  headers,
  rows,
}: {
  readonly label: string;
  readonly testId: string;
  readonly headers: readonly string[];
  readonly rows: readonly { readonly field: string; readonly cells: readonly FieldCell[] }[];
}) {
  return (
    <div className="data-table-scroll">
      <table className="data-table" aria-label={label} data-testid={testId}>
        <thead>
          <tr>
            <th>Field</th>
            {headers.map((header) => (
              <th key={header}>{header}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.field}>
              <td className="mono">{row.field}</td>
              {row.cells.map((cell, index) => (
                <td key={index} className={cell.muted ? 'mono muted' : 'mono'}>
                  {cell.text}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The fields an event changed, one row each: before and after side by side. */
export function ChangesTable({ changes }: { readonly changes: readonly FieldChange[] }) {
  const rows = changes.map((change) => ({
    field: change.field,
    cells: [change.before, change.after].map((side) => ({ text: sideText(side), muted: side.kind !== 'value' })),
  }));
  return <FieldTable label="Changes" testId="audit-changes" headers={['Before', 'After']} rows={rows} />;
}

/** Details that are not a change (a key's name at issue, how many answers a purge dropped). */
export function DetailsTable({ details }: { readonly details: readonly FieldDetail[] }) {
  const rows = details.map((detail) => ({ field: detail.field, cells: [{ text: valueText(detail.value) }] }));
  return <FieldTable label="Details" testId="audit-details" headers={['Value']} rows={rows} />;
}
