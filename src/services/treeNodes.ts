import type { AwsErrorExplained } from '../aws/errors';

/** What every tree view's node has: what it is, the id its tree item carries (views redraw and reveal by id), what it is drawn under. */
export interface TreeNode {
  readonly kind: string;
  readonly id: string;
  readonly parent?: TreeNode;
}

/** The command a message or load-more node runs when clicked, named on its row (Retry, Choose AWS profile, Clear filter…). */
export interface FixCommand {
  title: string;
  command: string;
  arguments?: unknown[];
}

/** Why a view shows a sentence instead of its items. */
export type MessageKind = 'loading' | 'empty' | 'noMatch' | 'warning' | 'error' | 'credentials';

interface MessageOptions {
  /** What fixes it; none when there is nothing to do. */
  fix?: FixCommand;
  /** A codicon other than the kind's own (the Jobs view's empty state shows the rocket of its Launch fix). */
  icon?: string;
  /** Tells apart several messages of one kind under one parent (the id ends in it instead of the kind). */
  key?: string;
}

/** Empty, loading and error states of every tree view: a sentence and, where there is one, the command that fixes it. */
export class MessageNode<P extends TreeNode | undefined = TreeNode | undefined> {
  readonly kind = 'message';
  readonly fix?: FixCommand;
  readonly icon?: string;
  private readonly key?: string;
  constructor(
    readonly parent: P,
    readonly message: MessageKind,
    readonly text: string,
    options: MessageOptions = {},
  ) {
    this.fix = options.fix;
    this.icon = options.icon;
    this.key = options.key;
  }
  get id(): string {
    return `${this.parent?.id ?? ''}#${this.key ?? this.message}`;
  }
}

/** The row after a page of items that lists the next page. */
export class LoadMoreNode<P extends TreeNode = TreeNode> {
  readonly kind = 'loadMore';
  constructor(
    readonly parent: P,
    readonly fix: FixCommand,
    /** What clicking does, e.g. "List the next 50 jobs". */
    readonly tooltip: string,
  ) {}
  get id(): string {
    return `${this.parent.id}#more`;
  }
}

const CHOOSE_PROFILE: FixCommand = { title: 'Choose AWS profile', command: 'mtrl.chooseProfile', arguments: [] };

/** The node for a failed listing: no credentials offers Choose AWS profile, any other error the view's Retry. */
export function failureNode<P extends TreeNode | undefined>(parent: P, failure: AwsErrorExplained, retry: FixCommand): MessageNode<P> {
  if (failure.kind === 'no-credentials') return new MessageNode(parent, 'credentials', failure.sentence, { fix: CHOOSE_PROFILE });
  return new MessageNode(parent, 'error', failure.sentence, { fix: retry });
}
