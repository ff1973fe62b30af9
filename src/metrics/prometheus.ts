// The Prometheus metrics themselves (prom-client): loaded only when metrics.enabled is on (src/metrics/registry.ts).
//
// Labels are closed vocabularies only (route templates, statuses, job kinds, provider slots, import sources,
// outcomes): never an account id, an e-mail address or any text a person wrote.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export const registry = new Registry();
const registers = [registry];

// Request latency buckets: the list route answers in well under a millisecond, imports and develop take seconds.
const HTTP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
// Queue-to-done time of a pipeline job: a capture is embedded within a second or two; minutes mean a backlog.
const JOB_BUCKETS = [0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600];
// Answers that shared one WAL sync (group commit): 1 when requests come one at a time, tens under a capture burst.
const WAITER_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128];
// One fdatasync of the WAL: a millisecond or two on an SSD, tens on a slow SD card or a disk under load.
const SYNC_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

export const metrics = {
  httpRequests: new Counter({ name: "idearepo_http_requests_total", help: "HTTP requests answered, by method, route template and status", labelNames: ["method", "route", "status"] as const, registers }),
  httpDuration: new Histogram({ name: "idearepo_http_request_duration_seconds", help: "Time from request to response, by method and route template", labelNames: ["method", "route"] as const, buckets: HTTP_BUCKETS, registers }),
  rateLimitRefusals: new Counter({ name: "idearepo_rate_limit_refusals_total", help: "Requests refused with 429 because the account's daily quota was spent", registers }),

  jobsPending: new Gauge({ name: "idearepo_pipeline_jobs_pending", help: "Background jobs waiting, by kind", labelNames: ["kind"] as const, registers }),
  jobsRunning: new Gauge({ name: "idearepo_pipeline_jobs_running", help: "Background jobs claimed by a worker now", registers }),
  oldestPendingAge: new Gauge({ name: "idearepo_pipeline_oldest_pending_job_age_seconds", help: "Age of the oldest waiting job (0 when none wait)", registers }),
  jobsProcessed: new Counter({ name: "idearepo_pipeline_jobs_processed_total", help: "Pipeline jobs finished or put back for a retry, by kind and outcome", labelNames: ["kind", "outcome"] as const, registers }),
  jobDuration: new Histogram({ name: "idearepo_pipeline_job_duration_seconds", help: "Time from queueing to done of a finished pipeline job, by kind", labelNames: ["kind"] as const, buckets: JOB_BUCKETS, registers }),
  embeddingsPending: new Gauge({ name: "idearepo_embeddings_pending", help: "Live ideas still without a vector of the configured model", registers }),
  reindexing: new Gauge({ name: "idearepo_embeddings_reindexing", help: "1 while a model change re-embeds every idea", registers }),
  ideas: new Gauge({ name: "idearepo_ideas", help: "Live (not archived) ideas over all accounts", registers }),
  modelLoaded: new Gauge({ name: "idearepo_model_loaded", help: "1 while the embedding model is in memory (it unloads when idle), by configured model", labelNames: ["model"] as const, registers }),

  databaseBytes: new Gauge({ name: "idearepo_database_size_bytes", help: "Size of the database: the SQLite file, or the PostgreSQL database (pg_database_size)", registers }),
  walBytes: new Gauge({ name: "idearepo_database_wal_size_bytes", help: "Size of the SQLite write-ahead log", registers }),
  diskFree: new Gauge({ name: "idearepo_disk_free_bytes", help: "Space left to unprivileged users on the data directory's file system", registers }),
  diskSize: new Gauge({ name: "idearepo_disk_size_bytes", help: "Size of the data directory's file system", registers }),
  walSyncs: new Counter({ name: "idearepo_wal_syncs_total", help: "Shared fdatasyncs of the write-ahead log (power-safe group commit), by outcome", labelNames: ["outcome"] as const, registers }),
  walSyncWaiters: new Histogram({ name: "idearepo_wal_sync_waiters", help: "Answers that waited on one WAL sync (the group of a group commit)", buckets: WAITER_BUCKETS, registers }),
  walSyncDuration: new Histogram({ name: "idearepo_wal_sync_duration_seconds", help: "Time one shared fdatasync of the WAL took", buckets: SYNC_BUCKETS, registers }),
  storageWritable: new Gauge({ name: "idearepo_storage_writable", help: "0 after a write failed for lack of space, until one succeeds", registers }),

  mailSent: new Counter({ name: "idearepo_mail_sent_total", help: "E-mails handed to the SMTP server", registers }),
  mailFailed: new Counter({ name: "idearepo_mail_failed_total", help: "E-mails the SMTP server refused or could not take", registers }),
  imports: new Counter({ name: "idearepo_imports_total", help: "Imports run (dry runs excluded), by source and outcome", labelNames: ["source", "outcome"] as const, registers }),
  importedIdeas: new Counter({ name: "idearepo_imported_ideas_total", help: "Ideas filed by imports, by source", labelNames: ["source"] as const, registers }),
  emailCaptures: new Counter({ name: "idearepo_email_captures_total", help: "E-mails received for capture, by outcome", labelNames: ["outcome"] as const, registers }),
  agentTurns: new Counter({ name: "idearepo_agent_turns_total", help: "Agent turns answered, by provider slot", labelNames: ["provider"] as const, registers }),
  providerErrors: new Counter({ name: "idearepo_provider_errors_total", help: "AI provider calls that failed, by provider slot and feature", labelNames: ["provider", "feature"] as const, registers }),
  buildInfo: new Gauge({ name: "idearepo_build_info", help: "Always 1; the running version as a label", labelNames: ["version"] as const, registers }),
};

// Process memory, CPU and event-loop figures (prom-client's standard set): this module is evaluated once per process,
// and only when metrics are on.
collectDefaultMetrics({ register: registry });
