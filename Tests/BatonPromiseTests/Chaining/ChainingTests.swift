@testable import BatonPromise
import TestSupport
import XCTest

// Small model types of the example: find orders, post a review, upload photos.
struct Order: Equatable, Sendable {
    let id: Int
    let facility: String
}

struct Review: Equatable, Sendable {
    let orderID: Int
    let rating: Int
}

struct Photo: Equatable, Sendable {
    let reviewOrderID: Int
    let name: String
}

/// Typed chains of steps, errors through chains, and which steps run.
final class ChainingTests: XCTestCase {
    func test_orderReviewPhotosChain_passesTypedValuesThroughPlainAndPromiseSteps() {
        let findOrders = Deferred<[Order]>("find")
        let postReview = Deferred<Review>("post")
        let uploadPhotos = Deferred<[Photo]>("upload")
        let log = Recorder<String>()

        let names: Promise<[String]> = findOrders.promise
            .success { orders -> Order in  // plain value
                log.append("first of \(orders.count) orders")
                return orders[0]
            }
            .success { order -> Promise<Review> in  // more work
                log.append("post review for order \(order.id) at \(order.facility)")
                return postReview.promise
            }
            .success { review -> Promise<[Photo]> in  // more work
                log.append("upload photos for review of order \(review.orderID), rating \(review.rating)")
                return uploadPhotos.promise
            }
            .success { photos in photos.map(\.name) }  // plain value

        findOrders.fulfill([Order(id: 7, facility: "Ryokan"), Order(id: 8, facility: "Onsen")])
        XCTAssertEqual(names.state, .running)
        postReview.fulfill(Review(orderID: 7, rating: 5))
        XCTAssertEqual(names.state, .running)
        uploadPhotos.fulfill([Photo(reviewOrderID: 7, name: "a.jpg"), Photo(reviewOrderID: 7, name: "b.jpg")])

        XCTAssertEqual(names.fulfilledValue, ["a.jpg", "b.jpg"])
        XCTAssertEqual(log.events, [
            "first of 2 orders",
            "post review for order 7 at Ryokan",
            "upload photos for review of order 7, rating 5",
        ])
    }

    func test_stepReturningAPromise_waitsForItBeforeTheNextStepRuns() {
        let root = Deferred<Int>()
        let inner = Deferred<Int>()
        let log = Recorder<String>()
        let last = root.promise
            .success { _ in inner.promise }
            .success { value in log.append("next step got \(value)") }
        root.fulfill(1)
        XCTAssertEqual(log.events, [])
        XCTAssertEqual(last.state, .running)
        inner.fulfill(2)
        XCTAssertEqual(log.events, ["next step got 2"])
        XCTAssertEqual(last.state, .fulfilled)
    }

    func test_successStepThatThrows_rejectsTheNextPromiseWithExactlyThatError() {
        let root = Deferred<Review>()
        let thrown = IdentifiedError()
        let photos: Promise<[Photo]> = root.promise.success { _ -> [Photo] in throw thrown }
        root.fulfill(Review(orderID: 1, rating: 3))
        XCTAssertEqual(photos.state, .rejected)
        XCTAssertTrue(photos.failureError as? IdentifiedError === thrown)
    }

    func test_promiseReturningStepThatThrows_rejectsTheNextPromiseWithExactlyThatError() {
        let root = Deferred<Int>()
        let thrown = IdentifiedError()
        let next: Promise<String> = root.promise.success { _ -> Promise<String> in throw thrown }
        root.fulfill(1)
        XCTAssertTrue(next.failureError as? IdentifiedError === thrown)
    }

    func test_oneFailureAtTheEnd_seesAnErrorFromTheFirstStep() {
        let root = Deferred<Int>()
        let log = Recorder<String>()
        root.promise
            .success { $0 + 1 }
            .success { $0 * 2 }
            .failure { error, isCancelled in log.append("failure \(error) cancelled: \(isCancelled)") }
        root.reject(TestError.step(0))
        XCTAssertEqual(log.events, ["failure step 0 cancelled: false"])
    }

    func test_oneFailureAtTheEnd_seesAnErrorThrownByAMiddleStep() {
        let root = Deferred<Int>()
        let log = Recorder<String>()
        root.promise
            .success { value -> Int in
                log.append("step 1")
                return value + 1
            }
            .success { _ -> Int in
                log.append("step 2")
                throw TestError.step(2)
            }
            .success { value -> Int in
                log.append("step 3")
                return value
            }
            .failure { error, _ in log.append("failure \(error)") }
        root.fulfill(0)
        XCTAssertEqual(log.events, ["step 1", "step 2", "failure step 2"])
    }

    func test_oneFailureAtTheEnd_seesARejectionOfAPromiseReturnedByAStep() {
        let root = Deferred<Int>()
        let inner = Deferred<String>()
        let log = Recorder<String>()
        root.promise
            .success { _ in inner.promise }
            .success { text in log.append("after inner: \(text)") }
            .failure { error, _ in log.append("failure \(error)") }
        root.fulfill(1)
        inner.reject(TestError.step(1))
        XCTAssertEqual(log.events, ["failure step 1"])
    }

    func test_oneFailureAtTheEnd_seesAnErrorFromTheLastStep() {
        let root = Deferred<Int>()
        let log = Recorder<String>()
        root.promise
            .success { $0 + 1 }
            .success { _ -> Int in throw TestError.step(2) }
            .failure { error, _ in log.append("failure \(error)") }
        root.fulfill(0)
        XCTAssertEqual(log.events, ["failure step 2"])
    }

    func test_stepsAfterTheFailedOne_neverRun_andTheErrorReachesTheEndUnchanged() {
        let root = Deferred<Int>()
        let ran = Recorder<Int>()
        var last = root.promise.success { value -> Int in
            ran.append(1)
            throw TestError.step(1)
        }
        for step in 2...20 {
            last = last.success { value in
                ran.append(step)
                return value
            }
        }
        root.fulfill(0)
        XCTAssertEqual(ran.events, [1])
        XCTAssertTestError(last.failureError, .step(1))
    }

    func test_recoverInTheMiddle_letsLaterStepsRunWithTheRecoveredValue() {
        let root = Deferred<Int>()
        let log = Recorder<String>()
        let last = root.promise
            .success { _ -> Int in throw TestError.boom }
            .recover { _, _ in 10 }
            .success { value -> Int in
                log.append("after recover \(value)")
                return value + 1
            }
        root.fulfill(0)
        XCTAssertEqual(log.events, ["after recover 10"])
        XCTAssertEqual(last.fulfilledValue, 11)
    }

    func test_thenInTheMiddle_runsForAFailureOfAnEarlierStep() {
        let root = Deferred<Int>()
        let last = root.promise
            .success { _ -> Int in throw TestError.step(1) }
            .success { $0 + 1 }
            .then { result -> String in
                if let error = result.error { return "recovered from \(error)" }
                return "no error"
            }
        root.fulfill(0)
        XCTAssertEqual(last.fulfilledValue, "recovered from step 1")
    }

    func test_alwaysAtTheEnd_runsAfterEveryStep() {
        let root = Deferred<Int>()
        let log = Recorder<String>()
        root.promise
            .success { value -> Int in
                log.append("step")
                return value
            }
            .always { log.append("always") }
        root.fulfill(0)
        XCTAssertEqual(log.events, ["step", "always"])
    }

    func test_stepsOfAChain_runInOrderOnTheSettlingThread_beforeFulfilReturns() {
        let root = Deferred<Int>()
        let log = Recorder<String>()
        root.promise
            .success { value -> Int in
                log.append("step 1")
                return value + 1
            }
            .success { _ -> Promise<Int> in
                log.append("step 2")
                return Promise(value: 2)
            }
            .success { _ in log.append("step 3") }
        root.fulfill(0)
        log.append("fulfil returned")
        XCTAssertEqual(log.events, ["step 1", "step 2", "step 3", "fulfil returned"])
    }
}
