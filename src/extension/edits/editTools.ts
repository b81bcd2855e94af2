// The chat's edit tools (create, replace in, delete, rename a file): `review` computes the exact
// change before anyone is asked (a diff for the approval card, or a refusal the model reads), and
// `run` writes exactly that change, after the user allowed it, through one WorkspaceEdit. The
// checkpoint of the reply keeps each file's pre-image before the first byte moves.
import type { ExclusionBaseline } from '../../core/workspaceFiles/exclusionBaseline';
import type { ToolCallRequest, ToolOutcome, ToolReview } from '../../core/answers/toolHost';
import type { CheckpointRecorder, ReplyRef } from '../checkpoints/checkpointRecorder';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import { applyEditPlan } from './applyEditPlan';
import { isEditTool } from '../../core/edits/editDefinitions';
import { EditPlan, planEdit } from './editPlan';
import { reviewedDiffs } from './reviewedDiffs';
import { errorMessage } from '../../shared/errorMessage';

export class EditTools {
  constructor(
    private readonly service: WorkspaceFilesService,
    private readonly checkpoints: CheckpointRecorder,
  ) {}

  /** The change a call would make (read now), or why it cannot run. Never throws. `baseline`: the conversation's (see WorkspaceFilesService.open). */
  async review(call: ToolCallRequest, baseline?: ExclusionBaseline): Promise<ToolReview> {
    if (!isEditTool(call.name)) return { sensitivePaths: [], refusal: `There is no edit tool named ${call.name}.` };
    try {
      const planned = await planEdit(this.service, call.name, call.input, baseline);
      if (!(planned instanceof EditPlan)) return { sensitivePaths: [], refusal: planned.refusal };
      reviewedDiffs().remember(call.id, planned);
      return {
        sensitivePaths: planned.sensitive,
        ...(planned.guarded.length ? { guarded: planned.guarded } : {}),
        change: planned.change,
        plan: planned,
      };
    } catch (error) {
      return { sensitivePaths: [], refusal: `The edit could not be prepared: ${errorMessage(error)}` };
    }
  }

  /** Writes the reviewed change (and only it). */
  async run(
    call: ToolCallRequest,
    review: ToolReview,
    reply: ReplyRef,
    baseline?: ExclusionBaseline,
  ): Promise<ToolOutcome> {
    if (!(review.plan instanceof EditPlan) || review.plan.tool !== call.name)
      return { content: 'This edit was not reviewed, so nothing was written.', isError: true };
    return applyEditPlan(review.plan, this.service, this.checkpoints, reply, baseline);
  }

  /** Opens VS Code's diff editor on a reviewed change; false when it is no longer kept. */
  openDiff(callId: string): Promise<boolean> {
    return reviewedDiffs().open(callId);
  }
}
