import { CloseCircleFilled } from '@ant-design/icons';
import { Button, Input, Space } from 'antd';

/**
 * A colour as `#rrggbb` (or null): the browser's colour picker plus the hex text. antd's
 * ColorPicker would pull its Collapse into the entry bundle that /login loads.
 */
export function ColorInput({ value, onChange, id }: { value?: string | null; onChange?(value: string | null): void; id?: string }) {
  return (
    <Space.Compact style={{ width: '100%' }}>
      <input
        type="color"
        aria-label="color"
        value={value ?? '#000000'}
        onChange={(e) => onChange?.(e.target.value.toLowerCase())}
        style={{ width: 44, height: 32, padding: 2, border: '1px solid #d9d9d9', borderRadius: '6px 0 0 6px', background: 'transparent', cursor: 'pointer' }}
      />
      <Input
        id={id}
        value={value ?? ''}
        placeholder="#1f6feb"
        maxLength={7}
        onChange={(e) => onChange?.(e.target.value.trim() ? e.target.value.trim().toLowerCase() : null)}
      />
      <Button icon={<CloseCircleFilled />} aria-label="clear" onClick={() => onChange?.(null)} disabled={!value} />
    </Space.Compact>
  );
}
