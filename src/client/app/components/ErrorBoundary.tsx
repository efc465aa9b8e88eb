import { Component, type ReactNode } from 'react';
import { RouteError } from './RouteError.js';

interface State {
  failed: boolean;
}

/** Catches a screen that cannot load (its chunk is gone after a release) or crashes. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}
