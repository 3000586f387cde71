import { theme, Typography } from 'antd';
import type { CSSProperties, ReactNode } from 'react';

// The page's headings go down one level at a time: the sidebar's "Frontis" is the first (h1), a
// screen's title the second (h2), a part of the screen or a drawer's record the third (h3).
// They keep the sizes the screens had (antd's levels 3, 4 and 5), so nothing moves on screen.

interface HeadingProps {
  children: ReactNode;
  style?: CSSProperties;
  className?: string;
}

/** A screen's title (h2), drawn at antd's level-3 size. */
export function ScreenTitle({ children, style, className }: HeadingProps) {
  const { token } = theme.useToken();
  return (
    <Typography.Title level={2} className={className} style={{ fontSize: token.fontSizeHeading3, lineHeight: token.lineHeightHeading3, ...style }}>
      {children}
    </Typography.Title>
  );
}

/** A part of a screen, or the record a drawer shows (h3), drawn at antd's level-4 or level-5 size. */
export function SectionTitle({ children, style, className, size = 5 }: HeadingProps & { size?: 4 | 5 }) {
  const { token } = theme.useToken();
  const fontSize = size === 4 ? token.fontSizeHeading4 : token.fontSizeHeading5;
  const lineHeight = size === 4 ? token.lineHeightHeading4 : token.lineHeightHeading5;
  return (
    <Typography.Title level={3} className={className} style={{ fontSize, lineHeight, ...style }}>
      {children}
    </Typography.Title>
  );
}
