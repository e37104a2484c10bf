/** test/app-notices.test.ts's cards and notices with many orders finished at once: ten, then fifty, with a wait long enough to announce them all under load. */
import { finishedTogether } from "./app-notices-many.js";

finishedTogether(10, 5);
finishedTogether(50, 30);
