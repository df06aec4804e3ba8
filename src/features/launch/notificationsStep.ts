import * as vscode from 'vscode';
import {
  describeNotificationRoute,
  notificationEvents,
  notificationsFromJobFile,
  NOTIFICATIONS_GUESS,
  type JobNotifications,
} from '../../core/jobs/notifications';

const EVENTS = ['Completed', 'Failed', 'Stopped', 'InProgress'];

/** The review's line for the SDK's notifications: where they go, or how to set them. */
export function notificationsItem(job: { Notifications?: JobNotifications }): { label: string; detail: string } {
  const n = job.Notifications;
  if (!n)
    return {
      label: '$(bell) No notifications: choose to send state changes to an SNS topic (opt-in)',
      detail: "As the SageMaker SDK's notifications: an EventBridge rule with the topic as target, made before the job.",
    };
  return {
    label: `$(bell) Notifications ${describeNotificationRoute({ topicArn: n.SnsTopicArn, events: notificationEvents(n) })}`,
    detail: NOTIFICATIONS_GUESS,
  };
}

/** Asks for the topic (empty: none) and the events; undefined when the user cancelled, null when they cleared it. */
export async function askForNotifications(
  current: JobNotifications | undefined,
  region: string,
  title: (what: string) => string,
): Promise<JobNotifications | null | undefined> {
  const topic = await vscode.window.showInputBox({
    title: title('Notifications: SNS topic'),
    prompt: `An SNS topic in ${region} that allows events.amazonaws.com to publish; empty for no notifications.`,
    placeHolder: `arn:aws:sns:${region}:111122223333:my-training-alerts`,
    value: current?.SnsTopicArn ?? '',
    ignoreFocusOut: true,
    validateInput: (value) => {
      if (!value.trim()) return undefined;
      const checked = notificationsFromJobFile({ SnsTopicArn: value.trim() });
      return checked && 'problem' in checked ? checked.problem : undefined;
    },
  });
  if (topic === undefined) return undefined;
  if (!topic.trim()) return null;
  const chosen = new Set(current ? notificationEvents(current) : ['Completed', 'Failed', 'Stopped']);
  const picked = await vscode.window.showQuickPick(
    EVENTS.map((e) => ({ label: e, picked: chosen.has(e) })),
    { title: title('Notifications: events'), canPickMany: true, ignoreFocusOut: true },
  );
  if (!picked?.length) return undefined;
  return { ...current, SnsTopicArn: topic.trim(), Events: picked.map((p) => p.label) };
}
