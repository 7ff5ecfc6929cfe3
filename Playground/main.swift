import Baton
import Foundation

// `swift run playground`: the source documents' flow told with Baton's promises. Find an order,
// post a review of it, upload its photos in parallel with one progress bar, handle every failure
// in one place; then the same chain cancelled halfway. The work is simulated on timers: this is
// the promise-only walk-through; the roadmap's playground issue runs it on the real client.

typealias Order = SimulatedWork.Order
typealias Review = SimulatedWork.Review
typealias Photo = SimulatedWork.Photo

func runReviewWithPhotos() async throws {
    print("1. Find an order, post a review, upload three photos")
    let bar = ProgressBar("   uploading")
    let chain: Promise<[Photo]> = SimulatedWork.findOrder(named: "山田")
        .success { orders -> Promise<Review> in
            print("   found order \(orders[0].id) for \(orders[0].name)")
            return SimulatedWork.postReview(for: orders[0], content: "とても良い")
        }
        .success { review -> Promise<[Photo]> in
            print("   posted review \(review.id)")
            return Promise.all((1...3).map { SimulatedWork.uploadPhoto(number: $0, bytes: 40_000) })
        }
    chain.progress { progress in
        // Only the upload step reports progress in photos (total 3); earlier steps report bytes.
        if progress.total == 3 { bar.draw(progress) }
    }
    let photos = try await chain
        .failure { error, isCancelled in print("   failed: \(error) (cancelled: \(isCancelled))") }
        .value
    bar.finish()
    print("   uploaded \(photos.count) photos, \(photos.map(\.bytes).reduce(0, +)) bytes")
}

func runCancelledChain() async {
    print("2. The same chain, cancelled once the photo upload has started")
    let posting = SimulatedWork.findOrder(named: "Smith")
        .success { orders in SimulatedWork.postReview(for: orders[0], content: "Great") }
    let uploads = posting.success { _ in SimulatedWork.uploadPhoto(number: 1, bytes: 1_000) }
    // Registered after `uploads`' own step, so the upload is running when this cancels it.
    posting.success { _ in uploads.cancel() }
    do {
        _ = try await uploads.value
        print("   unexpected: the chain finished")
    } catch {
        print("   the chain ended as \(uploads.state): \(type(of: error))")
    }
}

do {
    try await runReviewWithPhotos()
    await runCancelledChain()
} catch {
    print("playground failed: \(error)")
    exit(1)
}
