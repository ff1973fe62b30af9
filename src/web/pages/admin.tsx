// The operator's page: accounts (create with a password or an invitation, plan, trial, password, disable) and the
// instance's health with a backup download. Anyone else sees the not-found page, as the API answers them 404.
import { ApiError } from "../api/client";
import { getInstance, listUsers, type AdminUser } from "../api/admin";
import { Page } from "../components/page";
import { Loading, Notice } from "../components/notices";
import { useLoad } from "../lib/use-load";
import { useSession } from "../session";
import { NotFoundPage } from "./not-found";
import { CreateUserSection } from "./admin/create-user";
import { InstanceSection } from "./admin/instance";
import { UsersSection } from "./admin/users";

export function AdminPage(_props: { params: Record<string, string> }) {
  // is_operator comes with GET /user/me (just after sign-in the session briefly holds the login's User without it):
  // anyone known not to be an operator gets the not-found page without asking, so the browser logs no 404.
  const operator = useSession().user.is_operator;
  if (operator === false) return <NotFoundPage />;
  if (operator === undefined) return <Loading label="Opening the operator's page" />;
  return <OperatorPage />;
}

function OperatorPage() {
  const { user } = useSession();
  const users = useLoad(() => listUsers().then((r) => r.users));
  const instance = useLoad(getInstance);
  // The API decides (404 to anyone but an operator), so the page never shows more than the routes would.
  const missing = [users.failure, instance.failure].some((e) => e instanceof ApiError && e.status === 404);

  if (missing) return <NotFoundPage />;
  if (!users.data && !users.error && !instance.data && !instance.error) return <Loading label="Opening the operator's page" />;

  const remove = (id: string) => users.update((list) => list.filter((x) => x.id !== id));
  const replace = (u: AdminUser) => users.update((list) => (list.some((x) => x.id === u.id) ? list.map((x) => (x.id === u.id ? u : x)) : [...list, u]));

  return (
    <Page title="Operator" wide>
      <div class="admin-layout">
        <div class="admin-accounts">
          <CreateUserSection onCreated={replace} />
          {users.error && <Notice kind="error">{users.error}</Notice>}
          {!users.data && !users.error && <Loading label="Reading accounts" />}
          {users.data && <UsersSection users={users.data} selfId={user.id} onChanged={replace} onDeleted={remove} />}
        </div>
        <div class="admin-health">
          {instance.error && <Notice kind="error">{instance.error}</Notice>}
          {!instance.data && !instance.error && <Loading label="Reading the instance" />}
          {instance.data && <InstanceSection info={instance.data} onRefresh={instance.reload} refreshing={instance.loading} />}
        </div>
      </div>
    </Page>
  );
}
