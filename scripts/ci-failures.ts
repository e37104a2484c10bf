/** Prints each failed test of vitest's JSON reports with the head of its message, so the tail of a long CI log names them. */
import { readFileSync } from "node:fs";

interface JsonReport {
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

const head = (message = "") => message.split("\n").slice(0, 12).join("\n  ");

for (const path of process.argv.slice(2)) {
  const report = JSON.parse(readFileSync(path, "utf8")) as JsonReport;
  for (const file of report.testResults) {
    const name = file.name.replace(`${process.cwd()}/`, "");
    const failed = file.assertionResults.filter((test) => test.status === "failed");
    for (const test of failed) process.stdout.write(`FAILED ${name} > ${test.fullName}\n  ${head(test.failureMessages[0])}\n`);
    if (failed.length === 0 && file.status === "failed") process.stdout.write(`FAILED ${name}\n  ${head(file.message)}\n`);
  }
}
