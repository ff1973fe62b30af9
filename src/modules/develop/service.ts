// develop: the idea and its context → the caller's AI provider → a buildable spec (kept as the idea's last spec).
import type { Deps } from "../../deps";
import { AppError, badGateway, notFound } from "../../errors";
import { ideaId } from "../../http/params";
import { complete } from "../../ai/client";
import { ProviderError } from "../../ai/types";
import { createByokService, UnreadableKeyError, type ProviderCredential } from "../byok/service";
import { toStamp } from "../../lib/time";
import { createDevelopRepo } from "./repo";
import { buildDevelopPrompt } from "./prompt";
import { recordProviderError } from "../../metrics/registry";

export const DEVELOP_MAX_TOKENS = 4096;
const RELATED_LIMIT = 20;
const LINK_LIMIT = 50;

const needsByok = (error: string) => new AppError(400, { error, needs_byok: true });

export function createDevelopService(deps: Deps) {
  const repo = createDevelopRepo(deps.store);
  const byok = createByokService(deps);

  async function credentialOrThrow(userId: string): Promise<ProviderCredential> {
    let cred: ProviderCredential | null;
    try {
      cred = await byok.activeCredential(userId);
    } catch (e) {
      // An undecryptable key is as good as none: the fix is the same (store the key again).
      if (e instanceof UnreadableKeyError) throw needsByok(e.message);
      throw e;
    }
    if (!cred) throw needsByok("No AI provider key is stored. Add one with PUT /user/byok/:provider to develop ideas.");
    return cred;
  }

  async function storedSpec(userId: string, rawId: string) {
    const id = ideaId(rawId);
    if (!(await repo.findIdea(userId, id))) throw notFound("Idea not found");
    const row = await repo.findSpec(userId, id);
    if (!row) return null;
    return {
      spec: row.spec,
      provider: row.provider,
      model: row.model,
      usage: { input_tokens: row.input_tokens, output_tokens: row.output_tokens },
      created_at: row.created_at,
    };
  }

  return {
    async develop(userId: string, rawId: string) {
      const id = ideaId(rawId);
      // Archived ideas stay readable through GET /ideas/:id, so they can be developed too.
      const idea = await repo.findIdea(userId, id);
      if (!idea) throw notFound("Idea not found");
      const cred = await credentialOrThrow(userId);
      const prompt = buildDevelopPrompt({
        idea,
        tags: await repo.tagNames(id),
        related: await repo.related(userId, id, RELATED_LIMIT),
        links: await repo.links(id, LINK_LIMIT),
      });
      const started = performance.now();
      try {
        const out = await complete(cred.endpoint, cred.apiKey, { ...prompt, maxTokens: DEVELOP_MAX_TOKENS }, deps.config.provider_timeout_ms);
        if (!out.text.trim()) {
          // Reasoning models can spend the whole 4,096-token budget thinking; the stop reason says so.
          throw new ProviderError(`Provider returned an empty answer${out.stopReason ? ` (stop reason: ${out.stopReason})` : ""}`);
        }
        deps.log.info("idea developed", {
          user_id: userId, provider: cred.provider, model: out.model, ...out.usage,
          duration_ms: Math.round(performance.now() - started),
        });
        // Kept so reopening the idea shows the spec without paying for another call; only the last one is stored.
        await repo.saveSpec({
          idea_id: id, user_id: userId, spec: out.text, provider: cred.provider, model: out.model,
          input_tokens: out.usage.input_tokens, output_tokens: out.usage.output_tokens, created_at: toStamp(deps.clock()),
        });
        return { spec: out.text, provider: cred.provider, model: out.model, usage: out.usage };
      } catch (e) {
        if (!(e instanceof ProviderError)) throw e;
        recordProviderError(cred.provider, "develop");
        // The message is already key-free (see ai/http.ts); it is what the user sees.
        deps.log.warn("develop provider call failed", { user_id: userId, provider: cred.provider, error: e.message });
        throw badGateway(e.message, { provider: cred.provider });
      }
    },
    /** The last spec develop made for the idea: the develop answer plus when it was made. */
    async lastSpec(userId: string, rawId: string) {
      const spec = await storedSpec(userId, rawId);
      if (!spec) throw notFound("No spec yet");
      return spec;
    },
    /** GET /ideas/:id/spec: the same, but "none yet" is an answer (every field null), not a 404 the browser logs. */
    async specOrNone(userId: string, rawId: string) {
      return (await storedSpec(userId, rawId)) ?? { spec: null, provider: null, model: null, usage: null, created_at: null };
    },
  };
}
