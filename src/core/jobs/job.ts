import type { NotificationRoute } from './notifications';
import type { JobConfigDocument } from './document';
import type { JobCategory } from './status';
import type { StatusTransition } from './timeline';

/** One row of ListJobs, in the tree's words. */
export interface JobSummary {
  name: string;
  arn: string;
  category: JobCategory;
  region: string;
  status: string;
  secondaryStatus?: string;
  created: Date;
  modified?: Date;
  ended?: Date;
}

/** DescribeJob, with the document parsed (undefined when it is not valid JSON). */
export interface JobDetails extends JobSummary {
  roleArn?: string;
  failureReason?: string;
  transitions: StatusTransition[];
  document?: JobConfigDocument;
  /** Where its state changes go, as the launch tagged it. */
  notifications?: NotificationRoute;
}
