// The operator's page: accounts (create with a password or an invitation, plan, trial, password, disable) and the
// instance's health with a backup download. Anyone else sees the not-found page, as the API answers them 404.
import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError } from "../api/client";
import { getInstance, listUsers, type AdminUser, type InstanceInfo } from "../api/admin";
import { Page } from "../components/page";
import { Loading, Notice } from "../components/notices";
import { describeError } from "../errors";
import { useSession } from "../session";
import { NotFoundPage } from "./not-found";
import { CreateUserSection } from "./admin/create-user";
import { InstanceSection } from "./admin/instance";
import { UsersSection } from "./admin/users";

type Load<T> = { state: "loading" } | { state: "error"; message: string } | { state: "ready"; data: T };

export function AdminPage(_props: { params: Record<string, string> }) {
  const { user } = useSession();
  const [users, setUsers] = useState<Load<AdminUser[]>>({ state: "loading" });
  const [instance, setInstance] = useState<Load<InstanceInfo>>({ state: "loading" });
  const [refreshing, setRefreshing] = useState(false);
  // The API decides (404 to anyone but an operator), so the page never shows more than the routes would.
  const [missing, setMissing] = useState(false);

  const fail = (e: unknown) => {
    if (e instanceof ApiError && e.status === 404) setMissing(true);
    return { state: "error" as const, message: describeError(e) };
  };
  const loadInstance = useCallback(async () => {
    setRefreshing(true);
    try {
      setInstance({ state: "ready", data: await getInstance() });
    } catch (e) {
      setInstance(fail(e));
    } finally {
      setRefreshing(false);
    }
  }, []);

  useEffect(() => {
    listUsers().then((r) => setUsers({ state: "ready", data: r.users }), (e) => setUsers(fail(e)));
    loadInstance();
  }, []);

  if (missing) return <NotFoundPage />;
  if (users.state === "loading" && instance.state === "loading") return <Loading label="Opening the operator's page" />;

  const replace = (u: AdminUser) =>
    setUsers((s) => (s.state !== "ready" ? s : { state: "ready", data: s.data.some((x) => x.id === u.id) ? s.data.map((x) => (x.id === u.id ? u : x)) : [...s.data, u] }));

  return (
    <Page title="Operator" wide>
      <div class="admin-layout">
        <div class="admin-accounts">
          <CreateUserSection onCreated={replace} />
          {users.state === "loading" && <Loading label="Reading accounts" />}
          {users.state === "error" && <Notice kind="error">{users.message}</Notice>}
          {users.state === "ready" && <UsersSection users={users.data} selfId={user.id} onChanged={replace} />}
        </div>
        <div class="admin-health">
          {instance.state === "loading" && <Loading label="Reading the instance" />}
          {instance.state === "error" && <Notice kind="error">{instance.message}</Notice>}
          {instance.state === "ready" && <InstanceSection info={instance.data} onRefresh={loadInstance} refreshing={refreshing} />}
        </div>
      </div>
    </Page>
  );
}
