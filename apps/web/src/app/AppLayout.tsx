import { AppShell, Burger, Button, Group, NavLink, Text, Title, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ACCOUNT_PATH } from '../features/account/paths.ts';
import { hasRole, ROLE_LABELS, RoleBadge } from '../features/auth/roles.tsx';
import { meQueryOptions, useLogout } from '../features/auth/session.ts';
// The search palette (issue 13) is its own chunk, fetched when it is first opened (HeaderSearch.tsx).
import { HeaderSearch } from '../features/search/HeaderSearch.tsx';
import { useRememberedListHref } from '../list/rememberedQueries.ts';
import classes from './AppLayout.module.css';
import { ColorSchemeToggle } from './ColorSchemeToggle.tsx';
import { PRODUCT_NAME } from './documentTitle.ts';
import { Link, Outlet, useLocation } from './navigation.tsx';
import { type ScreenRoute, SIDEBAR_SCREENS, screenAt } from './screens.tsx';

/** The shell of every guarded screen: header with the operator and Logout, sidebar, content. */
export function AppLayout() {
  const [navbarOpened, { toggle: toggleNavbar, close: closeNavbar }] = useDisclosure(false);
  const { pathname } = useLocation();
  const screen = screenAt(pathname);
  // Screens for a higher role are left out of the sidebar (and out until the role is known).
  const role = useQuery(meQueryOptions).data?.role;
  // A detail screen keeps its list's link highlighted.
  const activePath = screen?.sidebarParent ?? screen?.path;

  // On a phone the sidebar covers the page; once the operator has picked a screen, get it out of the
  // way. Adjusted during render on a new address (no effect to re-run on every navigation).
  const [navigatedTo, setNavigatedTo] = useState(pathname);
  if (navigatedTo !== pathname) {
    setNavigatedTo(pathname);
    closeNavbar();
  }

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !navbarOpened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={navbarOpened}
              onClick={toggleNavbar}
              hiddenFrom="sm"
              size="sm"
              aria-label="Toggle navigation"
              aria-expanded={navbarOpened}
            />
            <Title order={3} style={{ whiteSpace: 'nowrap' }}>
              {PRODUCT_NAME}
            </Title>
          </Group>
          <HeaderSearch />
          <OperatorMenu />
        </Group>
      </AppShell.Header>

      <AppShell.Navbar
        component="nav"
        aria-label="Main navigation"
        className={classes.navbar}
        data-collapsed={navbarOpened ? undefined : true}
      >
        {/* Native scrolling: 21 links outgrow a short window, and it needs no measuring script. */}
        <AppShell.Section grow p="xs" style={{ overflowY: 'auto' }}>
          {SIDEBAR_SCREENS.filter((item) => !item.role || hasRole(role, item.role)).map((item) => (
            <SidebarLink key={item.path} screen={item} active={item.path === activePath} />
          ))}
        </AppShell.Section>
        {/* On a phone the header has no room for the email; the opened sidebar shows it instead. */}
        <AppShell.Section
          hiddenFrom="xs"
          p="md"
          style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
        >
          <SignedInAs />
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

/** Mantine's NavLink classes, as its filled NavLink draws them (see `SidebarLink`). */
const SIDEBAR_LINK_CLASS = [
  'mantine-focus-auto',
  NavLink.classes.root,
  UnstyledButton.classes.root,
  classes.sidebarLink,
].join(' ');

/**
 * A sidebar entry; a list screen's link reopens it at the page and filters it was left on. Drawn
 * as Mantine's `<NavLink component={Link} variant="filled" py={6}>` draws it (the same classes and
 * elements, less its empty description; the variant's variables in AppLayout.module.css), without
 * a NavLink's components for each of the 21 links on every screen's first draw (issue 14 item 6).
 */
function SidebarLink({ screen, active }: { screen: ScreenRoute; active: boolean }) {
  const href = useRememberedListHref(screen.path);
  return (
    <Link
      to={href}
      className={SIDEBAR_LINK_CLASS}
      data-variant="filled"
      data-active={active || undefined}
      aria-current={active ? 'page' : undefined}
    >
      <div className={NavLink.classes.body}>
        <span className={NavLink.classes.label}>{screen.label}</span>
      </div>
    </Link>
  );
}

/**
 * The signed-in operator's email (from xs up) and role, My account, and the Logout button. Who is
 * signed in is asked again when the operator comes back to the tab: a tab left open learns of a
 * role change, and a disabled operator's tab goes to the login page (the 401 does it). Not on a
 * timer: polling would keep a forgotten tab's session from ever going idle.
 */
function OperatorMenu() {
  const me = useQuery({ ...meQueryOptions, refetchOnWindowFocus: 'always' });
  const logout = useLogout();
  return (
    <Group gap="sm" wrap="nowrap" miw={0}>
      {me.data && (
        <Text size="sm" c="dimmed" truncate="end" maw={320} visibleFrom="xs" title={me.data.email}>
          {me.data.email}
        </Text>
      )}
      {me.data && <RoleBadge role={me.data.role} visibleFrom="xs" />}
      <ColorSchemeToggle />
      <Button component={Link} to={ACCOUNT_PATH} variant="subtle" size="xs">
        My account
      </Button>
      <Button variant="default" size="xs" onClick={() => logout.mutate()} disabled={logout.isPending}>
        Logout
      </Button>
    </Group>
  );
}

/** 'Signed in as …' for the phone sidebar. */
function SignedInAs() {
  const me = useQuery(meQueryOptions);
  if (!me.data) return null;
  return (
    <Text size="sm" c="dimmed" truncate="end">
      {`Signed in as ${me.data.email} (${ROLE_LABELS[me.data.role]})`}
    </Text>
  );
}
