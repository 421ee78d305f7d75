import type { ReactNode } from 'react';

/** One labelled value of a drawer's description list; "—" when there is none. */
export function Detail({ label, children }: { readonly label: string; readonly children: ReactNode }) {
  return (
    <div className="detail-item">
      <dt>{label}</dt>
      <dd>{children ?? '—'}</dd>
    </div>
  );
}
