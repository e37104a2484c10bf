/** test/app-notices.test.ts's "finished at once" at 50 orders, with a wait long enough to announce them all under load. */
import { finishedTogether } from "./app-notices-many.js";

finishedTogether(50, 30);
