/**
 * A fake model that answers every purpose plainly, so a test can read which branch of a conversation a prompt came
 * from: an answer names its question ("Answer to …"), a summary quotes the new messages it was given ("SUMMARY of: …"),
 * a title is "A title", and learning (extraction, working memory) finds what `learned` returns: nothing by default.
 */
import type { FakeInferenceRequest, FakeReply } from '../fakes/fake-ollama';
import { isLearning } from './request-kind';

export function echoModel(learned: (req: FakeInferenceRequest) => object[] = () => []): (req: FakeInferenceRequest) => FakeReply {
  return (req) => {
    const last = req.messages.at(-1)!.content;
    if (isLearning(req.purpose)) return { content: JSON.stringify({ memories: learned(req) }) };
    if (req.purpose === 'title') return { content: 'A title' };
    if (req.purpose === 'summary') return { content: `SUMMARY of: ${last.split('New messages:\n')[1]!.replace(/\s+/g, ' ')}` };
    return { content: `Answer to ${last}` };
  };
}
