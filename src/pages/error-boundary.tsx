import { Button, Space } from 'antd';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { i18n } from '../providers/i18nProvider';

interface State {
  error: Error | null;
  open: boolean;
}

/** A rendering failure shows 'Something went wrong!' with the error behind a toggle. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null, open: false };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  render() {
    const { error, open } = this.state;
    if (!error) return this.props.children;
    return (
      <div role="alert" style={{ maxWidth: 720, margin: '15vh auto', padding: 24, textAlign: 'center' }}>
        <h2>{i18n.t('errorBoundary.title')}</h2>
        <Space>
          <Button onClick={() => this.setState({ open: !open })}>{open ? i18n.t('errorBoundary.hideError') : i18n.t('errorBoundary.showError')}</Button>
          <Button type="primary" onClick={() => location.assign('/')}>
            {i18n.t('errorBoundary.reload')}
          </Button>
        </Space>
        {open && <pre style={{ whiteSpace: 'pre-wrap', textAlign: 'left', marginTop: 24 }}>{`${error.message}\n\n${error.stack ?? ''}`}</pre>}
      </div>
    );
  }
}
