// The instance's health for the operator: version, embeddings and reindex progress, queue, disk, last backup, download.
import { backupUrl, type InstanceInfo } from "../../api/admin";
import { fullTime, relativeTime } from "../../lib/time";
import { formatBytes } from "./format";
import { languageList } from "../../lib/languages";

export function InstanceSection({ info, onRefresh, refreshing }: { info: InstanceInfo; onRefresh: () => void; refreshing: boolean }) {
  const e = info.embeddings;
  const done = Math.max(0, e.total - e.pending);
  return (
    <section class="card admin-section" aria-labelledby="admin-instance">
      <div class="section-head">
        <h2 id="admin-instance">Instance</h2>
        <button type="button" class="btn small" onClick={onRefresh} disabled={refreshing}>{refreshing ? "Refreshing…" : "Refresh"}</button>
      </div>
      <dl class="admin-facts">
        <dt>Version</dt>
        <dd>{info.version}</dd>
        <dt>Embedding model</dt>
        <dd>
          <code>{e.model}</code>
          {e.search_model !== e.model && <span class="muted"> (searches use <code>{e.search_model}</code> until the reindex finishes)</span>}
        </dd>
        <dt>Languages it reads</dt>
        <dd>
          {languageList(e.languages)}
          {(info.unread_accounts ?? []).length > 0 && (
            <p class="admin-warn" role="status">
              {info.unread_accounts!.length === 1 ? "One account writes" : `${info.unread_accounts!.length} accounts write`} mostly in
              scripts this model does not read ({info.unread_accounts!.map((a) => `${a.email}: ${a.unread} of ${a.sampled} recent ideas`).join("; ")}).
              Their search by meaning, tags, relations and duplicates rest on words alone. A multilingual model reads them:
              {" "}<code>idearepo models pull Xenova/paraphrase-multilingual-MiniLM-L12-v2</code>, then set{" "}
              <code>IDEAREPO_EMBED_MODEL</code> to it and restart (the ideas are re-embedded in the background).
            </p>
          )}
        </dd>
        <dt>Index</dt>
        <dd>
          {e.reindexing ? (
            <>
              <span>Reindexing: {done.toLocaleString()} of {e.total.toLocaleString()} ideas</span>
              <progress class="admin-progress" max={Math.max(1, e.total)} value={done} aria-label="Reindex progress" />
            </>
          ) : e.pending > 0 ? (
            <span>{e.pending.toLocaleString()} of {e.total.toLocaleString()} ideas waiting to be indexed</span>
          ) : (
            <span>Up to date ({e.total.toLocaleString()} {e.total === 1 ? "idea" : "ideas"})</span>
          )}
        </dd>
        <dt>Queue</dt>
        <dd>{info.queue.pending.toLocaleString()} waiting, {info.queue.locked.toLocaleString()} running</dd>
        <dt>Data folder</dt>
        <dd>{formatBytes(info.data_dir_bytes)} <span class="muted">(database {formatBytes(info.database_bytes)})</span></dd>
        {info.database === "sqlite" && (
          <>
            <dt>Last backup</dt>
            <dd>
              {info.last_backup ? (
                <>
                  <time dateTime={info.last_backup.created_at.replace(" ", "T") + "Z"} title={fullTime(info.last_backup.created_at)}>
                    {relativeTime(info.last_backup.created_at)}
                  </time>
                  <span class="muted"> {info.last_backup.path ? <>to <code class="admin-path">{info.last_backup.path}</code></> : "(downloaded in a browser)"}</span>
                </>
              ) : (
                <span class="admin-warn">None recorded</span>
              )}
            </dd>
          </>
        )}
        <dt>Durability</dt>
        <dd>
          {info.durability === "power-safe"
            ? "Power-safe: every saved change is on disk before it is confirmed"
            : <span class="admin-warn">Crash-safe: the last changes before a power cut may be lost</span>}
        </dd>
        {info.database === "sqlite" && (
          <>
            <dt>Scheduled backups</dt>
            <dd><ScheduledBackups s={info.scheduled_backups} /></dd>
          </>
        )}
      </dl>
      {info.database === "sqlite" ? (
        <div class="admin-backup">
          <a class="btn primary" href={backupUrl()} download data-native>Download a backup</a>
          <p class="muted small">
            A consistent copy of the whole database, every account's ideas included. Provider keys in it stay sealed
            under <code>master.key</code>, which is not in the file: keep a copy of that too. Restore with{" "}
            <code>idearepo restore FILE</code>.
          </p>
        </div>
      ) : (
        <div class="admin-backup">
          <p class="muted small">
            The data is in PostgreSQL: back it up with <code>pg_dump</code> (restore with <code>pg_restore</code>), and
            keep a copy of <code>master.key</code> with the dumps, since provider keys stay sealed under it.
          </p>
        </div>
      )}
    </section>
  );
}

function ScheduledBackups({ s }: { s: InstanceInfo["scheduled_backups"] }) {
  if (!s.schedule) return <span class="muted">Off (set <code>backup_cron</code> to take verified copies on a schedule)</span>;
  const newest = s.copies[0];
  return (
    <>
      <span>
        <code>{s.schedule}</code>, keeping {s.keep}: {s.copies.length} verified {s.copies.length === 1 ? "copy" : "copies"} in{" "}
        <code class="admin-path">{s.dir}</code>
      </span>
      {newest && (
        <span class="muted">
          {" "}· newest {formatBytes(newest.bytes)},{" "}
          <time dateTime={newest.created_at.replace(" ", "T") + "Z"} title={fullTime(newest.created_at)}>{relativeTime(newest.created_at)}</time>
        </span>
      )}
      {s.last && !s.last.ok && (
        <span class="admin-warn" role="status">
          {" "}Last run failed {relativeTime(s.last.at)}: {s.last.error} (older copies kept)
        </span>
      )}
    </>
  );
}
