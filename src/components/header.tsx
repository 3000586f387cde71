import { DownOutlined, LogoutOutlined, MenuOutlined, MoonOutlined, SunOutlined, UserOutlined } from '@ant-design/icons';
import { useThemedLayoutContext } from '@refinedev/antd';
import { useGetIdentity, useLogout } from '@refinedev/core';
import { Avatar, Button, Dropdown, Grid, Layout, Segmented, Space, Switch, theme, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LANGUAGES } from '../../domain/enums';
import type { SessionUser } from '../providers/session';
import { NotificationBell } from './notification-bell';
import { usePreferences } from './preferences';

export function Header() {
  const { token } = theme.useToken();
  const { t, i18n } = useTranslation();
  const { mode, setMode } = usePreferences();
  const { data: user } = useGetIdentity<SessionUser>();
  const { mutate: logout } = useLogout();
  const navigate = useNavigate();
  const name = user ? `${user.firstName} ${user.lastName}`.trim() || user.username : '';
  const screens = Grid.useBreakpoint();
  const { setMobileSiderOpen } = useThemedLayoutContext();
  // Below lg the sider is a drawer (as Refine's sider decides); its toggle lives here, where a
  // thumb expects it, instead of floating over the page. On a phone the name gives way to the avatar.
  const drawerSider = screens.lg === false;
  const phone = screens.sm === false;

  return (
    <Layout.Header
      style={{
        backgroundColor: token.colorBgElevated,
        display: 'flex',
        justifyContent: drawerSider ? 'space-between' : 'flex-end',
        alignItems: 'center',
        gap: 8,
        padding: phone ? '0 8px' : '0 24px',
        height: 64,
        position: 'sticky',
        top: 0,
        zIndex: 1,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      {drawerSider && (
        <Button
          type="text"
          size="large"
          icon={<MenuOutlined />}
          aria-label={t('header.menu')}
          data-testid="menu-toggle"
          onClick={() => setMobileSiderOpen(true)}
        />
      )}
      <Space size={phone ? 'small' : 'middle'}>
        <NotificationBell />
        <Segmented
          aria-label={t('header.language')}
          size="small"
          value={i18n.language === 'en' ? 'en' : 'el'}
          options={LANGUAGES.map((l) => ({ value: l, label: <span data-testid={`language-${l}`}>{l.toUpperCase()}</span> }))}
          onChange={(value) => void i18n.changeLanguage(String(value))}
        />
        <Tooltip title={mode === 'dark' ? t('header.lightTheme') : t('header.darkTheme')}>
          <Switch
            aria-label={mode === 'dark' ? t('header.lightTheme') : t('header.darkTheme')}
            checked={mode === 'dark'}
            checkedChildren={<MoonOutlined />}
            unCheckedChildren={<SunOutlined />}
            onChange={(dark) => setMode(dark ? 'dark' : 'light')}
          />
        </Tooltip>
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              ...(phone ? [{ key: 'me', label: name, disabled: true }, { type: 'divider' as const }] : []),
              {
                key: 'mydata',
                icon: <UserOutlined />,
                label: t('header.myData'),
                onClick: () => navigate(user?.role === 'GUARDIAN' ? '/portal/details/' : '/mydata/'),
              },
              { type: 'divider' },
              { key: 'logout', icon: <LogoutOutlined />, label: t('header.signOut'), onClick: () => logout() },
            ],
          }}
        >
          <Button type="text" data-testid="user-menu" aria-label={phone ? name : undefined} style={{ height: 48, paddingInline: phone ? 4 : undefined }}>
            <Space size={phone ? 4 : 'small'}>
              <Avatar size="small" icon={<UserOutlined />} />
              {!phone && (
                <span style={{ display: 'inline-flex', flexDirection: 'column', lineHeight: 1.2, textAlign: 'left' }}>
                  <Typography.Text strong>{name}</Typography.Text>
                  {user && (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {t(`roles.${user.role}`)}
                    </Typography.Text>
                  )}
                </span>
              )}
              <DownOutlined style={{ fontSize: 10 }} />
            </Space>
          </Button>
        </Dropdown>
      </Space>
    </Layout.Header>
  );
}
