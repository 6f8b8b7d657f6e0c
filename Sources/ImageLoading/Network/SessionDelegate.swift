import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receives URLSession's callbacks (on the loader's serial delegate queue) and hands each to the
/// job that owns the task. It never decodes: the job queues the bytes for its own queue.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// Set once by the core right after the session is made, before any task exists.
    weak var core: LoaderCore?

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let job = core?.job(forTask: dataTask.taskIdentifier) else {
            completionHandler(.cancel)
            dataTask.cancel()
            return
        }
        if job.didReceive(response: response) {
            completionHandler(.allow)
        } else {
            completionHandler(.cancel)
            // swift-corelibs-foundation ignores `.cancel` from this handler: cancel the task itself.
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        core?.job(forTask: dataTask.taskIdentifier)?.didReceive(data: data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        core?.downloadDidComplete(taskIdentifier: task.taskIdentifier, error: error)
    }
}
