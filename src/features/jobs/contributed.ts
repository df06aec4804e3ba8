import type * as vscode from 'vscode';
import type { TreeNode } from '../../services/treeNodes';

/** A node another feature shows in the Jobs view (an evaluation sweep): the tree places it, the node draws itself. */
export interface ContributedNode extends TreeNode {
  readonly kind: 'contributed';
  readonly parent?: ContributedNode;
  treeItem(): vscode.TreeItem;
  children(): ContributedNode[];
}

/** Top-level nodes a feature adds above the region roots, redrawn when it fires. */
export interface JobsViewContribution {
  roots(): ContributedNode[];
  readonly onDidChange: vscode.Event<void>;
}

/** What the Jobs feature offers the others: a place at the top of its tree. */
export interface JobsView {
  contribute(contribution: JobsViewContribution): vscode.Disposable;
  /** The UI checks' known start: no filter or sort left, every root listed, polling held unless asked for. */
  resetForTests(options: { polling?: boolean }): Promise<void>;
}
