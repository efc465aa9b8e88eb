import { Component, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { retryFailedScreens } from './lazy-screen.js';
import { RouteError } from './RouteError.js';

interface Props {
  children: ReactNode;
  /** A change (another route) clears the failure, so that moving on shows the next screen. */
  resetKey: string;
}

interface State {
  error: unknown;
  failedAt: string | undefined;
}

/** Catches a screen that cannot load (its chunk is gone after a release, offline) or crashes. */
class Boundary extends Component<Props, State> {
  override state: State = { error: undefined, failedAt: undefined };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (state.error === undefined) return { failedAt: props.resetKey };
    return state.failedAt === props.resetKey
      ? null
      : { error: undefined, failedAt: props.resetKey };
  }

  private readonly retry = () => {
    retryFailedScreens();
    this.setState({ error: undefined });
  };

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    return this.state.error === undefined ? (
      this.props.children
    ) : (
      <RouteError error={this.state.error} onRetry={this.retry} />
    );
  }
}

export function ErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <Boundary resetKey={pathname}>{children}</Boundary>;
}
