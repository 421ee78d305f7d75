import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorMessage } from './feedback.js';

/**
 * Catches a render error in one screen and shows it in place of that screen, with a way to try again,
 * so the sidebar and the rest of the app stay usable: without it React unmounts the whole app and
 * leaves an empty window. A new `resetKey` (the address, say) clears the error and renders again.
 */
export class ErrorBoundary extends Component<
  { readonly resetKey?: string; readonly children: ReactNode },
  { readonly error: unknown; readonly resetKey: string | undefined; readonly failed: boolean }
> {
  override state = { error: undefined as unknown, resetKey: this.props.resetKey, failed: false };

  static getDerivedStateFromError(error: unknown): { error: unknown; failed: boolean } {
    return { error, failed: true };
  }

  static getDerivedStateFromProps(
    props: { readonly resetKey?: string },
    state: { readonly resetKey: string | undefined },
  ): { error: unknown; resetKey: string | undefined; failed: boolean } | null {
    return props.resetKey !== state.resetKey ? { error: undefined, resetKey: props.resetKey, failed: false } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // Kept in the console with the component stack, which the message on screen leaves out.
    console.error('screen failed to render', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="page-body" data-testid="screen-error">
        <ErrorMessage
          error={this.state.error}
          title="This screen stopped working"
          onRetry={() => this.setState({ error: undefined, failed: false })}
          action={
            <span className="muted">
              Other screens still work from the sidebar; reload the window (Ctrl+R) to start this one afresh.
            </span>
          }
        />
      </div>
    );
  }
}
