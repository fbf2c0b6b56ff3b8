/**
 * One screen's error stays in that screen: an error thrown while a screen renders shows one sentence
 * and a Reload button in the screen's place, the error's own words behind a disclosure, instead of
 * React unmounting the whole window (a blank page). The navigation stays, and going to another
 * route (`resetKey`) tries the screen again.
 */
import { Component, type ReactNode } from 'react';

interface Props {
  /** The route shown: when it changes, the screen is rendered again. */
  resetKey: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
  resetKey: string;
}

export class ScreenErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null;
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <section className="screen-error error-text" aria-labelledby="screen-error-sentence">
        <p role="alert" id="screen-error-sentence">
          This screen stopped working because of an error in the page; reload the page to start it again.
        </p>
        <button type="button" className="primary" onClick={() => window.location.reload()}>
          Reload
        </button>
        {error.message && (
          <details className="error-details">
            <summary>Details</summary>
            <pre>{error.message}</pre>
          </details>
        )}
      </section>
    );
  }
}
