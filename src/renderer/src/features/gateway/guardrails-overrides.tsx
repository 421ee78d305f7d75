import { PII_MODES, type PiiMode } from '../../../../shared/guardrails-api.js';
import { useApiKeys, useModelSettings } from '../../api/gateway-queries.js';
import { Button } from '../../components/button.js';
import { cellProblem } from '../../components/cell-problem.js';
import { Select, TextArea, TextInput } from '../../components/field.js';
import { CloseIcon, PlusIcon } from '../../components/icons.js';
import { problemsAt, type FieldProblem } from '../../lib/field-problems.js';
import { GUARDRAILS_FIELD_IDS, type GuardrailsDraft, type OverrideDraft } from './guardrails-form.js';
import { ActionsHeader } from '../../components/data-table.js';

/** Per-model and per-key overrides: one row each, blank fields inherited. */
export function OverridesTable({
  draft,
  problems,
  onChange,
}: {
  readonly draft: GuardrailsDraft;
  readonly problems: readonly FieldProblem[];
  readonly onChange: (draft: GuardrailsDraft) => void;
}) {
  const models = useModelSettings().data?.allowed_models ?? [];
  const keys = useApiKeys(false).data?.data ?? [];
  const problemIn = (fieldId: string) => cellProblem(fieldId, problemsAt(problems, fieldId));
  const setRow = (index: number, row: OverrideDraft): void =>
    onChange({ ...draft, overrides: draft.overrides.map((old, i) => (i === index ? row : old)) });
  const add = (scope: OverrideDraft['scope']): void =>
    onChange({
      ...draft,
      overrides: [
        ...draft.overrides,
        { scope, name: '', piiMode: '', patterns: null, answerPatterns: null, maxTokens: '' },
      ],
    });
  return (
    <>
      <div className="data-table-scroll">
        <table className="data-table" aria-label="Overrides" data-testid="guardrails-overrides">
          <thead>
            <tr>
              <th>Applies to</th>
              <th>PII mode</th>
              <th>Blocked patterns</th>
              <th>Blocked answer patterns</th>
              <th>Max input tokens</th>
              <th>
                <ActionsHeader />
              </th>
            </tr>
          </thead>
          <tbody>
            {draft.overrides.length === 0 && (
              <tr>
                <td colSpan={6} className="muted">
                  No overrides: every request follows the settings above.
                </td>
              </tr>
            )}
            {draft.overrides.map((row, index) => {
              const target = problemIn(GUARDRAILS_FIELD_IDS.overrideTarget(index));
              const maxTokens = problemIn(GUARDRAILS_FIELD_IDS.overrideMaxTokens(index));
              return (
                <tr key={index}>
                  <td>
                    <Select
                      {...target.control}
                      aria-label={`Override ${index + 1} ${row.scope}`}
                      value={row.name}
                      onChange={(event) => setRow(index, { ...row, name: event.target.value })}
                    >
                      <option value="">{row.scope === 'model' ? 'Choose a model…' : 'Choose a key…'}</option>
                      {row.scope === 'model'
                        ? [...new Set([...models, row.name].filter(Boolean))].map((model) => (
                            <option key={model} value={model}>
                              model {model}
                            </option>
                          ))
                        : [...new Set([...keys.map((key) => key.id), row.name].filter(Boolean))].map((id) => {
                            const key = keys.find((k) => k.id === id);
                            return (
                              <option key={id} value={id}>
                                key {key?.name ? `${key.name} (${key.key_prefix})` : id}
                              </option>
                            );
                          })}
                    </Select>
                    {target.message}
                  </td>
                  <td>
                    <Select
                      aria-label={`Override ${index + 1} PII mode`}
                      value={row.piiMode}
                      onChange={(event) => setRow(index, { ...row, piiMode: event.target.value as PiiMode | '' })}
                    >
                      <option value="">inherit</option>
                      {PII_MODES.map((mode) => (
                        <option key={mode} value={mode}>
                          {mode}
                        </option>
                      ))}
                    </Select>
                  </td>
                  <PatternsCell
                    label={`Override ${index + 1} blocked patterns`}
                    value={row.patterns}
                    problem={problemIn(GUARDRAILS_FIELD_IDS.overridePatterns(index))}
                    onChange={(patterns) => setRow(index, { ...row, patterns })}
                  />
                  <PatternsCell
                    label={`Override ${index + 1} blocked answer patterns`}
                    value={row.answerPatterns}
                    problem={problemIn(GUARDRAILS_FIELD_IDS.overrideAnswerPatterns(index))}
                    onChange={(answerPatterns) => setRow(index, { ...row, answerPatterns })}
                  />
                  <td>
                    <TextInput
                      {...maxTokens.control}
                      aria-label={`Override ${index + 1} max input tokens`}
                      className="input-narrow"
                      placeholder="inherit"
                      title="A number, 'none' for no limit, or blank to inherit"
                      value={row.maxTokens}
                      onChange={(event) => setRow(index, { ...row, maxTokens: event.target.value.trim() })}
                    />
                    {maxTokens.message}
                  </td>
                  <td className="align-right">
                    <Button
                      variant="ghost"
                      icon={<CloseIcon />}
                      aria-label={`Remove override ${index + 1}`}
                      onClick={() => onChange({ ...draft, overrides: draft.overrides.filter((_, i) => i !== index) })}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="toolbar">
        <Button variant="secondary" icon={<PlusIcon />} onClick={() => add('model')}>
          Model override
        </Button>
        <Button variant="secondary" icon={<PlusIcon />} onClick={() => add('key')}>
          Key override
        </Button>
      </div>
    </>
  );
}

/** An override's pattern list: inherited until replaced, then one pattern per line (empty: none). */
function PatternsCell({
  label,
  value,
  problem,
  onChange,
}: {
  readonly label: string;
  readonly value: string | null;
  readonly problem: ReturnType<typeof cellProblem>;
  readonly onChange: (value: string) => void;
}) {
  return (
    <td>
      {value === null ? (
        <Button variant="ghost" aria-label={`${label}: inherit · replace…`} onClick={() => onChange('')}>
          inherit · replace…
        </Button>
      ) : (
        <TextArea
          {...problem.control}
          aria-label={label}
          className="mono"
          rows={2}
          placeholder="none"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {problem.message}
    </td>
  );
}
