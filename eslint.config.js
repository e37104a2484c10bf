// @ts-check
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";
import { readdirSync } from "node:fs";

// A file inside another feature's folder, from anywhere outside it (`../keep/keep-plans.js` from a feature,
// `../../features/keep/keep-plans.js` from the bot): only its index.ts may be imported. Read from the tree,
// so a new feature folder is covered the moment it exists.
const features = readdirSync(new URL("src/features/", import.meta.url), { withFileTypes: true }).filter((e) => e.isDirectory());
const platformPatterns = [
  {
    group: ["**/shared/**", "**/bot/**", "**/features/**", "**/server/**", "**/app.js", "**/intake.js", "**/config.js"],
    message: "src/platform knows no domain: the app builds on it, never the reverse.",
  },
  { group: ["**/test/**", "**/testkit/**", "**/scripts/**", "**/bench/**"], message: "src/ must not import tests, test doubles, scripts or benchmarks." },
];
const featureInternals = `^(\\.\\./)+(features/)?(${features.map((e) => e.name).join("|")})/(?!index\\.js$)[^/]+$`;

// Features import each other only through shared code or events: a feature runs no other feature's code. What two
// features both draw (button data, the buttons and words that resolve a refusal, flow steps) lives in src/bot, the
// domain they share in src/shared, and what one tells another is an event. A type another feature hands in through the
// deps (its store, its watcher) may be named, from that feature's index.ts and as `import type` only.
const otherFeatureRules = features.map((own) => {
  const others = features
    .filter((e) => e.name !== own.name)
    .map((e) => e.name)
    .join("|");
  return {
    files: [`src/features/${own.name}/**/*.ts`],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(features/)?(${others})/`,
              allowTypeImports: true,
              message:
                "A feature runs no other feature's code: share it through src/shared or src/bot, or tell it with an event (docs/architecture.md). Only `import type` of another feature's index.ts is allowed.",
            },
          ],
        },
      ],
    },
  };
});

export default defineConfig(
  { ignores: ["dist/", "node_modules/", "data/", "coverage/", ".vitest.json", ".vitest-slow.json"] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: {
        // These files are plain JS outside every tsconfig; lint them without a program of their own.
        projectService: { allowDefaultProject: ["eslint.config.js", "scripts/build.mjs"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { arguments: false } }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": "error",
      // Counts, ids and sun amounts (number, bigint) print exactly; nullish values, booleans and objects still need String() or a format.
      "@typescript-eslint/restrict-template-expressions": [
        "error",
        { allowNumber: true, allowAny: false, allowBoolean: false, allowNullish: false, allowRegExp: false, allowNever: false },
      ],
      // `(x) => voidCall()` callbacks and `return reply(...)` in handlers that return nothing read as one step, not as a value.
      "@typescript-eslint/no-confusing-void-expression": ["error", { ignoreArrowShorthand: true, ignoreVoidReturningFunctions: true }],
      // Off until the 60 `!` reads in src/ and scripts/ (regex groups, indexes checked a line before) become checked reads.
      "@typescript-eslint/no-non-null-assertion": "off",
      // Off until its 11 findings in src/ and scripts/ are sorted: most are flags set in callbacks and `JSON.stringify(x) ?? "null"`, which TS types as never undefined.
      "@typescript-eslint/no-unnecessary-condition": "off",
    },
  },
  {
    // The shared domain knows nothing of Telegram, the HTTP server or any one feature.
    files: ["src/shared/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["grammy", "@grammyjs/*"], message: "src/shared must not depend on Telegram." },
            {
              group: ["**/bot/**", "**/features/**", "**/server/**", "**/simulator/**", "**/app.js", "**/intake.js"],
              message: "src/shared must not import outer layers.",
            },
            {
              group: ["**/test/**", "**/testkit/**", "**/scripts/**", "**/bench/**"],
              message: "src/ must not import tests, test doubles, scripts or benchmarks.",
            },
          ],
        },
      ],
    },
  },
  {
    // The bot layer renders and calls the shared domain; it is assembled by src/app.ts and src/intake.ts, never the reverse.
    files: ["src/bot/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/server/**", "**/simulator/**", "**/app.js", "**/intake.js"],
              message: "src/bot must not import the server, the simulator or the composition root.",
            },
            {
              regex: featureInternals,
              message: "Another feature is reached through its index.ts only: what it exports there is its public face.",
            },
            {
              group: ["**/test/**", "**/testkit/**", "**/scripts/**", "**/bench/**"],
              message: "src/ must not import tests, test doubles, scripts or benchmarks.",
            },
          ],
        },
      ],
    },
  },
  ...otherFeatureRules,
  {
    // The bot's shared layer (context, middleware, button data, shared keyboards and texts, flow steps) runs no
    // feature's code; only its composition files list the features' composers and conversations.
    files: ["src/bot/**/*.ts"],
    ignores: ["src/bot/index.ts", "src/bot/conversations/index.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\./)+features/",
              allowTypeImports: true,
              message: "src/bot is shared by the features: it runs none of their code (only `import type` of a feature's index.ts is allowed).",
            },
          ],
        },
      ],
    },
  },
  {
    // Libraries are used through their public API: nothing assigns into the conversations plugin's controls,
    // and a flow is entered through `ctx.enterFlow`, which leaves the open one first.
    files: ["src/**/*.ts"],
    ignores: ["src/bot/middlewares/flow-guard.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "AssignmentExpression > MemberExpression.left[object.property.name='conversation']",
          message: "Do not patch the conversations plugin's controls; wrap behaviour in a helper or a context flavor.",
        },
        {
          selector: "CallExpression[callee.property.name='enter'][callee.object.property.name='conversation']",
          message: "Enter a flow with ctx.enterFlow(id, ...args): it leaves the open flow first.",
        },
      ],
    },
  },
  {
    // What ships never depends on what only tests, the sandbox and benchmarks use.
    files: ["src/**/*.ts"],
    ignores: ["src/shared/**/*.ts", "src/bot/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: featureInternals,
              message: "Another feature is reached through its index.ts only: what it exports there is its public face.",
            },
            {
              group: ["**/test/**", "**/testkit/**", "**/scripts/**", "**/bench/**"],
              message: "src/ must not import tests, test doubles, scripts or benchmarks.",
            },
          ],
        },
      ],
    },
  },
  {
    // In a feature folder only the files that face Telegram (its Composer, conversation and steps, keyboards, texts,
    // notifiers, index.ts) import grammY; its use cases, stores and checks are plain TypeScript that a job or a page can run.
    files: ["src/features/**/*.ts"],
    ignores: [
      "src/features/**/index.ts",
      "src/features/**/*-feature.ts",
      "src/features/**/*-conversation.ts",
      "src/features/**/*-steps.ts",
      "src/features/**/*-options.ts",
      "src/features/**/*-keyboards.ts",
      "src/features/**/*-texts.ts",
      "src/features/**/*-notifier.ts",
      "src/features/**/*-opener.ts",
    ],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["grammy", "@grammyjs/*"],
              message: "Only a feature's Telegram-facing files import grammY (its -feature, -conversation, -keyboards, -texts, -notifier files).",
            },
            {
              regex: featureInternals,
              message: "Another feature is reached through its index.ts only: what it exports there is its public face.",
            },
            {
              group: ["**/test/**", "**/testkit/**", "**/scripts/**", "**/bench/**"],
              message: "src/ must not import tests, test doubles, scripts or benchmarks.",
            },
          ],
        },
      ],
    },
  },
  {
    // The platform (the store, the queue connection, the service client, the push outbox, HTTP, events, metrics) knows
    // no domain: it imports nothing of the app, and only its Telegram transport (src/platform/telegram) imports grammY.
    files: ["src/platform/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["grammy", "@grammyjs/*"], message: "Only src/platform/telegram depends on Telegram." }, ...platformPatterns] },
      ],
    },
  },
  {
    files: ["src/platform/telegram/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: platformPatterns }] },
  },
  {
    // No scripts <-> test cycle: what both use (the fake Bot API, signing, the kill figures) lives in testkit/.
    files: ["test/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["**/scripts/**"], message: "tests import testkit/, never scripts/." }] }],
    },
  },
  {
    files: ["scripts/**/*.ts", "bench/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["**/test/**"], message: "scripts and benchmarks import testkit/, never test/." }] }],
    },
  },
  {
    files: ["testkit/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/test/**", "**/scripts/**"], message: "testkit/ stands alone: it imports neither test/ nor scripts/." }] },
      ],
    },
  },
  {
    files: ["test/**/*.ts", "testkit/**/*.ts", "bench/**/*.ts", "eslint.config.js", "vitest.config.ts", "vitest.slow.config.ts"],
    rules: {
      "no-console": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/unbound-method": "off",
      // Failure messages and fixtures may print undefined or a boolean as such.
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true, allowNullish: true, allowBoolean: true }],
    },
  },
);
