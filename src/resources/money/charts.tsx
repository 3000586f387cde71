import { Space, Typography } from 'antd';

// Small SVG charts drawn by hand: no chart library is installed, and a grouped bar chart and a
// line chart over a few dozen months are a few rectangles and a polyline (a few KB, not a
// 200 KB library chunk).

export interface Series {
  key: string;
  label: string;
  color: string;
  values: number[];
}

interface Props {
  title: string;
  /** One label per x position (months). */
  labels: string[];
  series: Series[];
  /** How a value reads on the axis and in tooltips. */
  format(value: number): string;
  height?: number;
}

const WIDTH = 720;
const PAD = { top: 12, right: 12, bottom: 28, left: 84 };

function scaleOf(series: Series[], height: number) {
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const min = Math.min(0, ...series.flatMap((s) => s.values));
  const inner = height - PAD.top - PAD.bottom;
  const y = (v: number) => PAD.top + inner - ((v - min) / (max - min)) * inner;
  return { max, min, y };
}

function Frame({ title, labels, series, format, height, children }: Props & { height: number; children: React.ReactNode }) {
  const { max, min, y } = scaleOf(series, height);
  const step = (WIDTH - PAD.left - PAD.right) / Math.max(1, labels.length);
  const ticks = [min, (min + max) / 2, max];
  return (
    <figure style={{ margin: 0 }}>
      <Typography.Text strong>{title}</Typography.Text>
      <svg viewBox={`0 0 ${WIDTH} ${height}`} width="100%" role="img" aria-label={title} data-chart={series.map((s) => s.key).join(',')}>
        {ticks.map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(v)} y2={y(v)} stroke="#f0f0f0" />
            <text x={PAD.left - 6} y={y(v) + 4} fontSize={11} textAnchor="end" fill="#8c8c8c">
              {format(v)}
            </text>
          </g>
        ))}
        {labels.map((label, i) => (
          <text key={label} x={PAD.left + step * (i + 0.5)} y={height - 8} fontSize={11} textAnchor="middle" fill="#595959">
            {label}
          </text>
        ))}
        {children}
      </svg>
      <Space size="middle" wrap>
        {series.map((s) => (
          <Space key={s.key} size={4}>
            <span style={{ display: 'inline-block', width: 10, height: 10, background: s.color }} />
            <Typography.Text type="secondary">{s.label}</Typography.Text>
          </Space>
        ))}
      </Space>
    </figure>
  );
}

/** Bars side by side for each x position. */
export function BarChart(props: Props) {
  const height = props.height ?? 240;
  const { y } = scaleOf(props.series, height);
  const step = (WIDTH - PAD.left - PAD.right) / Math.max(1, props.labels.length);
  const bar = (step * 0.8) / Math.max(1, props.series.length);
  return (
    <Frame {...props} height={height}>
      {props.labels.map((label, i) =>
        props.series.map((s, j) => {
          const v = s.values[i] ?? 0;
          const top = Math.min(y(v), y(0));
          return (
            <rect key={`${label}-${s.key}`} x={PAD.left + step * i + step * 0.1 + bar * j} y={top} width={bar} height={Math.abs(y(0) - y(v))} fill={s.color}>
              <title>{`${label} · ${s.label}: ${props.format(v)}`}</title>
            </rect>
          );
        }),
      )}
    </Frame>
  );
}

/** One line per series. */
export function LineChart(props: Props) {
  const height = props.height ?? 240;
  const { y } = scaleOf(props.series, height);
  const step = (WIDTH - PAD.left - PAD.right) / Math.max(1, props.labels.length);
  const x = (i: number) => PAD.left + step * (i + 0.5);
  return (
    <Frame {...props} height={height}>
      {props.series.map((s) => (
        <g key={s.key}>
          <polyline fill="none" stroke={s.color} strokeWidth={2} points={s.values.map((v, i) => `${x(i)},${y(v)}`).join(' ')} />
          {s.values.map((v, i) => (
            <circle key={props.labels[i]} cx={x(i)} cy={y(v)} r={3} fill={s.color}>
              <title>{`${props.labels[i]} · ${s.label}: ${props.format(v)}`}</title>
            </circle>
          ))}
        </g>
      ))}
    </Frame>
  );
}
