import { ControllerBase } from './controller-base';
import type { ChangeHandler } from '../../client/informer';

/**
 * A controller that can stop during a scenario and start again (Cluster.stopController /
 * startController), as kube-controller-manager dies or loses its leader lease: a stopped one's
 * informer handlers and syncs do nothing. The shared informers cannot drop a handler, so the
 * stopped instance's handlers stay registered and return at once.
 */
export abstract class StoppableController extends ControllerBase {
  protected stopped = false;

  stop(): void {
    this.stopped = true;
  }

  /** The handler, run only while the controller runs. */
  protected whileRunning<T>(handler: ChangeHandler<T>): ChangeHandler<T> {
    return (key, old, obj) => {
      if (!this.stopped) handler(key, old, obj);
    };
  }
}
