import { Component, type ReactNode } from 'react';
import { isChunkLoadError } from '@/lib/lazy-import.js';
import { retryFailedScreens } from './lazy-screen.js';

interface State {
  error: unknown;
}

/**
 * A part of a screen below what the screen is for (a product's suppliers and activity), whose
 * code (a lazyScreen) is asked for once the screen is drawn. A user who left before it came and
 * is now offline has no such code: the part is left out, and asked for again once the connection
 * is back, instead of the whole screen saying it could not be loaded. Any other failure is the
 * screen's error boundary's.
 */
export class LaterPart extends Component<{ children: ReactNode }, State> {
  override state: State = { error: undefined };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error ?? new Error('Unknown error') };
  }

  private readonly retry = () => {
    retryFailedScreens();
    this.setState({ error: undefined });
  };

  override componentDidMount() {
    window.addEventListener('online', this.retry);
  }

  override componentWillUnmount() {
    window.removeEventListener('online', this.retry);
  }

  override render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    if (!isChunkLoadError(error)) throw error;
    return null;
  }
}
