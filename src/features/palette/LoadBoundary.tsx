import { Component, type ReactNode } from 'react';

/**
 * Catches a failed load of the palette's or the sheet's chunk (offline, or a new release replaced it) so that
 * the rest of the page keeps working; the caller closes the overlay and says so.
 */
export class LoadBoundary extends Component<{ onError: (error: unknown) => void; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    this.props.onError(error);
  }

  render() {
    return this.state.failed ? null : this.props.children;
  }
}
