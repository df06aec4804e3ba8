import type * as vscode from 'vscode';

/** A node another feature shows in the Jobs view (an evaluation sweep): the tree places it, the node draws itself. */
export interface ContributedNode {
  readonly kind: 'contributed';
  /** The id of its tree item: the view redraws nodes by id. */
  readonly id: string;
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
  /** The UI checks' known start: no filter, every root listed again. */
  resetForTests(): Promise<void>;
}
